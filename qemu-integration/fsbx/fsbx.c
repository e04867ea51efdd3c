// SPDX-License-Identifier: GPL-2.0
/*
 * fsbx: a data-integrity exerciser for one file.
 *
 * From a seed, it runs random writes, reads, truncates, mmap reads, mmap
 * writes and fsyncs on one file (and with -D, direct writes and reads:
 * O_DIRECT, page-aligned, through a second descriptor), keeps what the file must contain in
 * memory, and checks every byte it reads against that.  On a mismatch it
 * prints the first differing bytes and the last operations, and exits 1.
 * -m writes the model to a file at the end, so that the caller can compare
 * the file with it after an unmount, fsck and remount.
 *
 *   fsbx [-s seed] [-n ops] [-S max_size] [-L max_len] [-m model_out]
 *        [-F op] [-D] file
 *
 * Without -D a seed runs the same operations as before -D existed: the
 * direct ones take a quarter of the writes and reads, chosen by a random
 * draw that only -D makes.
 *
 * -F flips a byte of the model at that operation and checks the whole file,
 * for the harness's self-test: the run must then fail.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

enum { OP_WRITE, OP_READ, OP_TRUNC, OP_MREAD, OP_MWRITE, OP_FSYNC, OP_DWRITE,
       OP_DREAD, OP_NR };
static const char *const op_names[OP_NR] = {
	"write", "read", "truncate", "mmap-read", "mmap-write", "fsync",
	"dio-write", "dio-read",
};

/* Offsets and lengths of direct I/O: a page, whatever the block size. */
#define DIO_ALIGN 4096

#define LOG_SIZE 32

struct logent {
	uint64_t n;
	int op;
	uint64_t off, len, size_after;
};

static struct logent oplog[LOG_SIZE];
static uint64_t nops;
static uint64_t counts[OP_NR];
static uint8_t *model, *buf, *dbuf;
static uint64_t size, max_size, max_len;
static uint64_t rng;
static const char *path;
static int fd, dfd = -1;
static long pagesz;

static uint64_t rnd(void)
{
	/* xorshift64* */
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545F4914F6CDD1DULL;
}

static uint64_t rnd_below(uint64_t n)
{
	return n ? rnd() % n : 0;
}

static void dump_log(void)
{
	uint64_t first = nops >= LOG_SIZE ? nops - LOG_SIZE + 1 : 1, i;

	fprintf(stderr, "fsbx: last operations:\n");
	for (i = first; i <= nops; i++) {
		struct logent *e = &oplog[i % LOG_SIZE];

		fprintf(stderr, "  #%" PRIu64 " %-10s off %" PRIu64 " len %" PRIu64
			" -> size %" PRIu64 "\n", e->n, op_names[e->op], e->off,
			e->len, e->size_after);
	}
}

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "fsbx: FAIL at op %" PRIu64 ": ", nops);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	dump_log();
	exit(1);
}

static void check(const uint8_t *got, uint64_t off, uint64_t len, const char *how)
{
	uint64_t i, bad = 0, first = 0;

	if (!memcmp(got, model + off, len))
		return;
	for (i = 0; i < len; i++) {
		if (got[i] != model[off + i]) {
			if (!bad++)
				first = i;
		}
	}
	fprintf(stderr, "fsbx: %s: %" PRIu64 " bytes differ in [%" PRIu64 ", %" PRIu64
		"), first at %" PRIu64 ":\n", how, bad, off, off + len, off + first);
	for (i = first; i < len && i < first + 16; i++)
		fprintf(stderr, "  @%" PRIu64 ": file %02x model %02x\n", off + i,
			got[i], model[off + i]);
	die("data mismatch (%s)", how);
}

static void fill(uint8_t *p, uint64_t off, uint64_t len)
{
	uint64_t i, tag = nops * 0x9E3779B97F4A7C15ULL;

	for (i = 0; i < len; i++)
		p[i] = (uint8_t)((off + i) * 131 + (tag >> ((i & 7) * 8)) + 1);
}

/* The file now has @len bytes of @src at @off: update the model. */
static void model_write(const uint8_t *src, uint64_t off, uint64_t len)
{
	if (off > size)
		memset(model + size, 0, off - size);
	memcpy(model + off, src, len);
	if (off + len > size)
		size = off + len;
}

static void pick(uint64_t *off, uint64_t *len, uint64_t limit)
{
	*off = rnd_below(limit);
	*len = 1 + rnd_below(max_len);
	/* Often aligned, to hit whole blocks and pages. */
	if (rnd_below(4) == 0) {
		*off &= ~(uint64_t)511;
		*len = (*len + 511) & ~(uint64_t)511;
	}
	if (*off + *len > limit)
		*len = limit - *off;
}

static void do_write(void)
{
	uint64_t off, len;
	ssize_t r;

	pick(&off, &len, max_size);
	if (!len)
		return;
	fill(buf, off, len);
	r = pwrite(fd, buf, len, off);
	if (r != (ssize_t)len)
		die("pwrite(%" PRIu64 ", %" PRIu64 ") = %zd: %s", off, len, r,
		    r < 0 ? strerror(errno) : "short");
	model_write(buf, off, len);
	oplog[nops % LOG_SIZE] = (struct logent){ nops, OP_WRITE, off, len, size };
}

static void do_read(void)
{
	uint64_t off, len;
	ssize_t r;

	if (!size)
		return;
	pick(&off, &len, size);
	oplog[nops % LOG_SIZE] = (struct logent){ nops, OP_READ, off, len, size };
	r = pread(fd, buf, len + 100, off);
	if (r != (ssize_t)(len + 100 < size - off ? len + 100 : size - off))
		die("pread(%" PRIu64 ", %" PRIu64 ") = %zd, size %" PRIu64 ": %s",
		    off, len + 100, r, size, r < 0 ? strerror(errno) : "wrong length");
	check(buf, off, r, "read");
}

static void do_trunc(void)
{
	uint64_t to = rnd_below(4) ? rnd_below(max_size + 1) : rnd_below(size + 1);

	if (ftruncate(fd, to))
		die("ftruncate(%" PRIu64 "): %s", to, strerror(errno));
	if (to > size)
		memset(model + size, 0, to - size);
	size = to;
	oplog[nops % LOG_SIZE] = (struct logent){ nops, OP_TRUNC, to, 0, size };
}

static void do_mmap(int write)
{
	uint64_t off, len, moff;
	size_t mlen;
	uint8_t *p;

	if (!size)
		return;
	pick(&off, &len, size);
	if (!len)
		return;
	oplog[nops % LOG_SIZE] = (struct logent){ nops, write ? OP_MWRITE : OP_MREAD,
						  off, len, size };
	moff = off & ~(uint64_t)(pagesz - 1);
	mlen = off + len - moff;
	p = mmap(NULL, mlen, write ? PROT_READ | PROT_WRITE : PROT_READ,
		 MAP_SHARED, fd, moff);
	if (p == MAP_FAILED)
		die("mmap(%" PRIu64 ", %zu): %s", moff, mlen, strerror(errno));
	if (write) {
		fill(model + off, off, len);
		memcpy(p + (off - moff), model + off, len);
		if (rnd_below(2) && msync(p, mlen, MS_SYNC))
			die("msync: %s", strerror(errno));
	} else {
		memcpy(buf, p + (off - moff), len);
	}
	if (munmap(p, mlen))
		die("munmap: %s", strerror(errno));
	if (!write)
		check(buf, off, len, "mmap read");
}

/* A page-aligned range of whole pages below @limit; len 0 if none fits. */
static void pick_aligned(uint64_t *off, uint64_t *len, uint64_t limit)
{
	uint64_t pages = limit / DIO_ALIGN, max = max_len / DIO_ALIGN;

	*off = rnd_below(pages) * DIO_ALIGN;
	*len = (1 + rnd_below(max ? max : 1)) * DIO_ALIGN;
	if (*off + *len > pages * DIO_ALIGN)
		*len = pages * DIO_ALIGN - *off;
}

static void do_dwrite(void)
{
	uint64_t off, len;
	ssize_t r;

	pick_aligned(&off, &len, max_size);
	if (!len)
		return;
	fill(dbuf, off, len);
	oplog[nops % LOG_SIZE] = (struct logent){ nops, OP_DWRITE, off, len, size };
	r = pwrite(dfd, dbuf, len, off);
	if (r != (ssize_t)len)
		die("O_DIRECT pwrite(%" PRIu64 ", %" PRIu64 ") = %zd: %s", off, len,
		    r, r < 0 ? strerror(errno) : "short");
	model_write(dbuf, off, len);
	oplog[nops % LOG_SIZE].size_after = size;
}

static void do_dread(void)
{
	uint64_t off, len, want;
	ssize_t r;

	pick_aligned(&off, &len, size + DIO_ALIGN - 1);
	if (!len || off >= size)
		return;
	oplog[nops % LOG_SIZE] = (struct logent){ nops, OP_DREAD, off, len, size };
	want = len < size - off ? len : size - off;
	r = pread(dfd, dbuf, len, off);
	if (r != (ssize_t)want)
		die("O_DIRECT pread(%" PRIu64 ", %" PRIu64 ") = %zd, size %" PRIu64
		    ": %s", off, len, r, size, r < 0 ? strerror(errno) : "wrong length");
	check(dbuf, off, r, "direct read");
}

static void verify_all(const char *how)
{
	struct stat st;
	uint64_t off = 0;

	if (fstat(fd, &st))
		die("fstat: %s", strerror(errno));
	if ((uint64_t)st.st_size != size)
		die("%s: size %" PRIu64 ", model %" PRIu64, how,
		    (uint64_t)st.st_size, size);
	while (off < size) {
		uint64_t len = size - off < max_len ? size - off : max_len;
		ssize_t r = pread(fd, buf, len, off);

		if (r != (ssize_t)len)
			die("%s: pread(%" PRIu64 ") = %zd", how, off, r);
		check(buf, off, len, how);
		off += len;
	}
}

int main(int argc, char **argv)
{
	uint64_t seed = 1, n = 10000, i;
	const char *model_out = NULL;
	uint64_t fault = 0;
	int c, direct = 0;

	max_size = 1 << 20;
	max_len = 64 << 10;
	while ((c = getopt(argc, argv, "s:n:S:L:m:F:D")) != -1) {
		switch (c) {
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 'n': n = strtoull(optarg, NULL, 0); break;
		case 'S': max_size = strtoull(optarg, NULL, 0); break;
		case 'L': max_len = strtoull(optarg, NULL, 0); break;
		case 'm': model_out = optarg; break;
		case 'F': fault = strtoull(optarg, NULL, 0); break;
		case 'D': direct = 1; break;
		default:
			fprintf(stderr, "usage: fsbx [-s seed] [-n ops] [-S max_size] [-L max_len] [-m model_out] [-F op] [-D] file\n");
			return 2;
		}
	}
	if (optind + 1 != argc || !max_size || !max_len) {
		fprintf(stderr, "fsbx: one file, and non-zero sizes\n");
		return 2;
	}
	path = argv[optind];
	pagesz = sysconf(_SC_PAGESIZE);
	rng = seed * 0x9E3779B97F4A7C15ULL + 0x1234567;
	model = calloc(1, max_size);
	buf = malloc(max_len + 100 > max_size ? max_len + 100 : max_size);
	if (!model || !buf)
		return 2;
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		fprintf(stderr, "fsbx: %s: %s\n", path, strerror(errno));
		return 2;
	}
	if (direct) {
		if (posix_memalign((void **)&dbuf, DIO_ALIGN,
				   (max_len + DIO_ALIGN) & ~(uint64_t)(DIO_ALIGN - 1)))
			return 2;
		dfd = open(path, O_RDWR | O_DIRECT);
		if (dfd < 0) {
			fprintf(stderr, "fsbx: %s with O_DIRECT: %s\n", path, strerror(errno));
			return 2;
		}
	}
	for (i = 0; i < n; i++) {
		unsigned int r = rnd_below(100);

		nops = i + 1;
		if (nops == fault && size) {
			model[rnd_below(size)] ^= 0x40;
			verify_all("check after the injected fault");
		}
		if (r < 32 && direct && rnd_below(4) == 0)
			do_dwrite(), counts[OP_DWRITE]++;
		else if (r < 32)
			do_write(), counts[OP_WRITE]++;
		else if (r < 58 && direct && rnd_below(4) == 0)
			do_dread(), counts[OP_DREAD]++;
		else if (r < 58)
			do_read(), counts[OP_READ]++;
		else if (r < 65)
			do_trunc(), counts[OP_TRUNC]++;
		else if (r < 80)
			do_mmap(0), counts[OP_MREAD]++;
		else if (r < 98)
			do_mmap(1), counts[OP_MWRITE]++;
		else {
			oplog[nops % LOG_SIZE] = (struct logent){ nops, OP_FSYNC, 0, 0, size };
			if (fsync(fd))
				die("fsync: %s", strerror(errno));
			counts[OP_FSYNC]++;
		}
		if (i % 20000 == 19999) {
			verify_all("periodic full check");
			printf("fsbx: %" PRIu64 "/%" PRIu64 " ops\n", i + 1, n);
			fflush(stdout);
		}
	}
	if (fsync(fd))
		die("final fsync: %s", strerror(errno));
	verify_all("final check");
	if (dfd >= 0)
		close(dfd);
	close(fd);
	if (model_out) {
		int m = open(model_out, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (m < 0 || write(m, model, size) != (ssize_t)size || close(m)) {
			fprintf(stderr, "fsbx: cannot write the model to %s\n", model_out);
			return 2;
		}
	}
	printf("fsbx: seed %" PRIu64 ": %" PRIu64 " ops, 0 mismatches (writes %" PRIu64
	       ", reads %" PRIu64 ", truncates %" PRIu64 ", mmap reads %" PRIu64
	       ", mmap writes %" PRIu64 ", fsyncs %" PRIu64 ", direct writes %" PRIu64
	       ", direct reads %" PRIu64 "), final size %" PRIu64 "\n",
	       seed, n, counts[OP_WRITE], counts[OP_READ], counts[OP_TRUNC],
	       counts[OP_MREAD], counts[OP_MWRITE], counts[OP_FSYNC],
	       counts[OP_DWRITE], counts[OP_DREAD], size);
	return 0;
}
