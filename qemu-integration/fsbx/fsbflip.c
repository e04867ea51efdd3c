// SPDX-License-Identifier: GPL-2.0
/*
 * fsbflip: flip random bits in chosen byte ranges of a device or image,
 * for the byte-flip scenarios of filesystems that mximg does not know.
 *
 *   fsbflip DEV SEED COUNT OFF:LEN...
 *
 * Picks COUNT bytes at random (from SEED) among the ranges, each range
 * weighted by its length, flips one random bit in each, and prints the
 * offsets, so that a failing seed can be replayed.  The caller chooses
 * the ranges: the filesystem's metadata, found with its own tools.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct range {
	uint64_t off, len;
};

static uint64_t rng;

static uint64_t rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545F4914F6CDD1DULL;
}

int main(int argc, char **argv)
{
	uint64_t seed, count, total = 0, i;
	struct range *r;
	int fd, nr, j;

	if (argc < 5) {
		fprintf(stderr, "usage: fsbflip DEV SEED COUNT OFF:LEN...\n");
		return 2;
	}
	seed = strtoull(argv[2], NULL, 0);
	count = strtoull(argv[3], NULL, 0);
	nr = argc - 4;
	r = calloc(nr, sizeof(*r));
	if (!r)
		return 2;
	for (j = 0; j < nr; j++) {
		char *end;

		r[j].off = strtoull(argv[4 + j], &end, 0);
		if (*end != ':' || !(r[j].len = strtoull(end + 1, &end, 0)) || *end) {
			fprintf(stderr, "fsbflip: bad range '%s'\n", argv[4 + j]);
			return 2;
		}
		total += r[j].len;
	}
	fd = open(argv[1], O_RDWR);
	if (fd < 0) {
		fprintf(stderr, "fsbflip: %s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	rng = seed * 0x9E3779B97F4A7C15ULL + 1;
	for (i = 0; i < count; i++) {
		uint64_t pick = rnd() % total, off;
		unsigned char c;
		unsigned int bit = rnd() >> 61;

		for (j = 0; pick >= r[j].len; j++)
			pick -= r[j].len;
		off = r[j].off + pick;
		if (pread(fd, &c, 1, off) != 1) {
			fprintf(stderr, "fsbflip: read at %" PRIu64 ": %s\n", off, strerror(errno));
			return 1;
		}
		c ^= 1u << bit;
		if (pwrite(fd, &c, 1, off) != 1) {
			fprintf(stderr, "fsbflip: write at %" PRIu64 ": %s\n", off, strerror(errno));
			return 1;
		}
		printf("flipped bit %u of byte %" PRIu64 "\n", bit, off);
	}
	if (fsync(fd) || close(fd)) {
		fprintf(stderr, "fsbflip: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	return 0;
}
