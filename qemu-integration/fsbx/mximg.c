// SPDX-License-Identifier: GPL-2.0
/*
 * mximg: damage a minix image on purpose, for the corrupt-image scenarios.
 *
 *   mximg info DEV                 print the superblock fields, one per line
 *   mximg set DEV FIELD VALUE      set a superblock field (see "info")
 *   mximg flip DEV SEED COUNT      flip one random bit in each of COUNT
 *                                  random bytes of the metadata blocks: the
 *                                  superblock, bitmaps and inode table, and
 *                                  the blocks of directories and symlinks
 *                                  and the indirect blocks of files in use
 *   mximg zone DEV INO IDX VALUE   set zone pointer IDX of inode INO
 *   mximg dirent DEV IDX INO       point entry IDX of the root directory's
 *                                  first block at inode INO
 *   mximg inode DEV INO            print inode INO's size and mtime as the
 *                                  device holds them (read with O_DIRECT,
 *                                  past any cache, while mounted)
 *
 * Knows V1, V2 and V3 filesystems (little-endian, as Linux writes them).
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

#define SB_OFF 1024

struct field {
	const char *name;
	unsigned int off, size;
};

/* Offsets inside the superblock (struct minix_super_block, minix3_...). */
static const struct field v12_fields[] = {
	{ "ninodes", 0, 2 }, { "nzones", 2, 2 }, { "imap_blocks", 4, 2 },
	{ "zmap_blocks", 6, 2 }, { "firstdatazone", 8, 2 },
	{ "log_zone_size", 10, 2 }, { "max_size", 12, 4 }, { "magic", 16, 2 },
	{ "state", 18, 2 }, { "zones", 20, 4 }, { NULL, 0, 0 },
};

static const struct field v3_fields[] = {
	{ "ninodes", 0, 4 }, { "imap_blocks", 6, 2 }, { "zmap_blocks", 8, 2 },
	{ "firstdatazone", 10, 2 }, { "log_zone_size", 12, 2 },
	{ "max_size", 16, 4 }, { "zones", 20, 4 }, { "magic", 24, 2 },
	{ "blocksize", 28, 2 }, { "disk_version", 30, 1 }, { NULL, 0, 0 },
};

static unsigned char sb[1024];
static int fd;

static void die(const char *fmt, const char *arg)
{
	fprintf(stderr, "mximg: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n");
	exit(2);
}

/* Little-endian fields of @size bytes (1 to 8). */
static uint64_t le_get(const unsigned char *p, unsigned int size)
{
	uint64_t v = 0;

	while (size--)
		v = (v << 8) | p[size];
	return v;
}

static void le_put(unsigned char *p, unsigned int size, uint64_t v)
{
	unsigned int i;

	for (i = 0; i < size; i++, v >>= 8)
		p[i] = v & 0xff;
}

/* A field of the superblock as read into sb[]. */
static uint64_t get(unsigned int off, unsigned int size)
{
	return le_get(sb + off, size);
}

static int is_v3(void)
{
	return get(24, 2) == 0x4d5a;
}

static const struct field *fields(void)
{
	return is_v3() ? v3_fields : v12_fields;
}

static uint64_t field(const char *name)
{
	const struct field *f;

	for (f = fields(); f->name; f++)
		if (!strcmp(f->name, name))
			return get(f->off, f->size);
	die("no field %s", name);
	return 0;
}

static unsigned int block_size(void)
{
	return is_v3() ? field("blocksize") : 1024;
}

static void rw(int write, void *p, size_t len, off_t off)
{
	ssize_t n = write ? pwrite(fd, p, len, off) : pread(fd, p, len, off);

	if (n != (ssize_t)len)
		die("I/O error: %s", n < 0 ? strerror(errno) : "short");
}

static int is_v1(void)
{
	uint64_t magic = get(16, 2);

	return !is_v3() && (magic == 0x137f || magic == 0x138f);
}

static uint64_t nzones(void)
{
	return is_v1() ? field("nzones") : field("zones");
}

/* Byte offset of zone pointer @idx of inode @ino, and its size. */
static off_t zone_ptr(uint64_t ino, unsigned int idx, unsigned int *size)
{
	off_t table = (2 + field("imap_blocks") + field("zmap_blocks")) *
		      (off_t)block_size();

	if (!ino || idx >= 10)
		die("bad inode or zone index%s", "");
	if (is_v1()) {
		*size = 2;
		return table + (ino - 1) * 32 + 14 + idx * 2;
	}
	*size = 4;
	return table + (ino - 1) * 64 + 24 + idx * 4;
}

/*
 * Inode @ino as the device holds it: the block around it is read with
 * O_DIRECT, so that neither the block device's page cache nor anything
 * else in the kernel stands between.
 */
static void print_inode(const char *dev, uint64_t ino)
{
	off_t table = (2 + field("imap_blocks") + field("zmap_blocks")) *
		      (off_t)block_size();
	unsigned int isize = is_v1() ? 32 : 64;
	off_t off = table + (ino - 1) * isize, start = off & ~(off_t)4095;
	unsigned char *p;
	void *buf;
	int dfd;

	if (!ino || ino > field("ninodes"))
		die("no inode %s", "");
	dfd = open(dev, O_RDONLY | O_DIRECT);
	if (dfd < 0 || posix_memalign(&buf, 4096, 4096))
		die("cannot read the device directly: %s", strerror(errno));
	if (pread(dfd, buf, 4096, start) != 4096)
		die("direct read: %s", strerror(errno));
	p = (unsigned char *)buf + (off - start);
	/* V1: size at 4, time at 8; V2/V3: size at 8, mtime at 16. */
	if (is_v1())
		printf("size %" PRIu64 " mtime %" PRIu64 "\n", le_get(p + 4, 4),
		       le_get(p + 8, 4));
	else
		printf("size %" PRIu64 " mtime %" PRIu64 "\n", le_get(p + 8, 4),
		       le_get(p + 16, 4));
	free(buf);
	close(dfd);
}

/* A field of @size bytes (1 to 4) at byte @off of the device. */
static uint64_t read_le(off_t off, unsigned int size)
{
	unsigned char b[4];

	rw(0, b, size, off);
	return le_get(b, size);
}

static void write_le(off_t off, unsigned int size, uint64_t v)
{
	unsigned char b[4];

	le_put(b, size, v);
	rw(1, b, size, off);
}

static unsigned int dirent_size(void)
{
	uint64_t magic = get(16, 2);

	if (is_v3())
		return 64;
	return magic == 0x138f || magic == 0x2478 ? 32 : 16;
}

#define MAX_META 65536
static uint64_t meta[MAX_META];
static unsigned long nmeta;

static void add_meta(uint64_t blk)
{
	if (blk && blk < nzones() && nmeta < MAX_META)
		meta[nmeta++] = blk;
}

/* The blocks an indirect block at @level (1: single) points to. */
static void add_indirect(uint64_t blk, int level)
{
	unsigned int psize = is_v1() ? 2 : 4, i;

	if (!blk || blk >= nzones())
		return;
	add_meta(blk);
	if (level == 1)
		return;
	for (i = 0; i < block_size() / psize; i++)
		add_indirect(read_le(blk * block_size() + i * psize, psize),
			     level - 1);
}

static void collect_metadata(void)
{
	unsigned int psize = is_v1() ? 2 : 4, z;
	uint64_t ino, b, ninodes = field("ninodes");

	meta[nmeta++] = 0;	/* stands for the superblock */
	for (b = 2; b < field("firstdatazone"); b++)
		add_meta(b);
	for (ino = 1; ino <= ninodes && ino < 65536; ino++) {
		unsigned int size;
		off_t zp = zone_ptr(ino, 0, &size);
		off_t ip = zp - (is_v1() ? 14 : 24);
		unsigned int mode = read_le(ip, 2) & 0170000;
		unsigned int nlink = is_v1() ? read_le(ip + 13, 1) : read_le(ip + 2, 2);

		if (!mode || !nlink)
			continue;
		for (z = 0; z < 7; z++)
			if (mode == 0040000 || mode == 0120000)
				add_meta(read_le(zp + z * psize, psize));
		for (z = 7; z < (is_v1() ? 9u : 10u); z++)
			add_indirect(read_le(zp + z * psize, psize), z - 6);
	}
	fprintf(stderr, "mximg: %lu metadata blocks\n", nmeta);
}

int main(int argc, char **argv)
{
	const struct field *f;

	if (argc < 3)
		die("usage: mximg info|set|flip|zone|dirent|inode DEV ...%s", "");
	/* info and inode may run on a mounted device: read-only there. */
	if (!strcmp(argv[1], "info") || !strcmp(argv[1], "inode"))
		fd = open(argv[2], O_RDONLY);
	else
		fd = open(argv[2], O_RDWR | O_SYNC);
	if (fd < 0)
		die("cannot open the device: %s", strerror(errno));
	rw(0, sb, sizeof(sb), SB_OFF);

	if (!strcmp(argv[1], "info")) {
		printf("version %d\n", is_v3() ? 3 : 0);
		for (f = fields(); f->name; f++)
			printf("%s %" PRIu64 "\n", f->name, get(f->off, f->size));
		return 0;
	}
	if (!strcmp(argv[1], "set") && argc == 5) {
		for (f = fields(); f->name; f++)
			if (!strcmp(f->name, argv[3]))
				break;
		if (!f->name)
			die("no field %s", argv[3]);
		le_put(sb + f->off, f->size, strtoull(argv[4], NULL, 0));
		rw(1, sb, sizeof(sb), SB_OFF);
		return 0;
	}
	if (!strcmp(argv[1], "flip") && argc == 5) {
		uint64_t seed = strtoull(argv[3], NULL, 0);
		unsigned long count = strtoul(argv[4], NULL, 0), i;
		uint64_t rng = seed * 0x9E3779B97F4A7C15ULL + 1;

		collect_metadata();
		for (i = 0; i < count; i++) {
			uint64_t blk, off;
			unsigned char c;

			rng ^= rng >> 12;
			rng ^= rng << 25;
			rng ^= rng >> 27;
			blk = meta[(rng * 0x2545F4914F6CDD1DULL >> 20) % nmeta];
			off = blk * block_size() +
			      (rng * 0x2545F4914F6CDD1DULL >> 40) % block_size();
			/* Block 0 is the boot block: flips in the superblock only. */
			if (!blk)
				off = SB_OFF + off % 1024;
			rw(0, &c, 1, off);
			c ^= 1u << (rng >> 61);
			rw(1, &c, 1, off);
			printf("flipped byte %" PRIu64 " (block %" PRIu64 ")\n", off,
			       blk);
		}
		return 0;
	}
	if (!strcmp(argv[1], "zone") && argc == 6) {
		unsigned int size;
		off_t off = zone_ptr(strtoull(argv[3], NULL, 0),
				     strtoul(argv[4], NULL, 0), &size);

		write_le(off, size, strtoull(argv[5], NULL, 0));
		return 0;
	}
	if (!strcmp(argv[1], "dirent") && argc == 5) {
		unsigned int size;
		off_t ptr = zone_ptr(1, 0, &size);
		off_t off = read_le(ptr, size) * block_size() +
			    strtoul(argv[3], NULL, 0) * dirent_size();

		write_le(off, is_v3() ? 4 : 2, strtoull(argv[4], NULL, 0));
		return 0;
	}
	if (!strcmp(argv[1], "inode") && argc == 4) {
		print_inode(argv[2], strtoull(argv[3], NULL, 0));
		return 0;
	}
	die("bad arguments for %s", argv[1]);
	return 2;
}
