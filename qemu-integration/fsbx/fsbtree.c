// SPDX-License-Identifier: GPL-2.0
/*
 * fsbtree OP DIR NFILES [SIZE]: the metadata workload of make bench.
 *
 *   create  make DIR with 100 subdirectories and NFILES files of SIZE
 *           bytes (default 100) spread over them
 *   stat    read every subdirectory and stat every entry it lists
 *   read    open, read and close every file
 *   unlink  remove every file and subdirectory, and DIR
 *   sync    syncfs(2) of the filesystem that holds DIR (NFILES only goes
 *           into the line it prints); timed here because /proc/uptime
 *           counts in 10 ms steps, about what a sync of a RAM disk takes
 *
 * One process does it all (a shell would fork per file, which under TCG
 * costs more than the filesystem).  Prints "OP N files: SECONDS s" with
 * the wall time of the operation (CLOCK_MONOTONIC); exits 1 on the first
 * error, naming it.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define NDIRS	100

static char buf[1 << 16];

static void die(const char *what, const char *path)
{
	fprintf(stderr, "fsbtree: %s %s: %s\n", what, path, strerror(errno));
	exit(1);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* File @i of the tree: subdirectory i % NDIRS, so that they fill evenly. */
static void file_path(char *p, size_t len, const char *dir, long i)
{
	snprintf(p, len, "%s/d%03ld/f%06ld", dir, i % NDIRS, i);
}

static void dir_path(char *p, size_t len, const char *dir, int d)
{
	snprintf(p, len, "%s/d%03d", dir, d);
}

static void create(const char *dir, long n, size_t size)
{
	char p[4096];
	size_t left, chunk;
	long i;
	int d, fd;

	if (mkdir(dir, 0755))
		die("mkdir", dir);
	for (d = 0; d < NDIRS; d++) {
		dir_path(p, sizeof(p), dir, d);
		if (mkdir(p, 0755))
			die("mkdir", p);
	}
	memset(buf, 0x5a, sizeof(buf));
	for (i = 0; i < n; i++) {
		file_path(p, sizeof(p), dir, i);
		fd = open(p, O_WRONLY | O_CREAT | O_EXCL, 0644);
		if (fd < 0)
			die("create", p);
		for (left = size; left; left -= chunk) {
			chunk = left < sizeof(buf) ? left : sizeof(buf);
			if (write(fd, buf, chunk) != (ssize_t)chunk)
				die("write", p);
		}
		if (close(fd))
			die("close", p);
	}
}

static long stat_all(const char *dir)
{
	char p[4096];
	struct dirent *de;
	struct stat st;
	long seen = 0;
	DIR *dh;
	int d;

	for (d = 0; d < NDIRS; d++) {
		dir_path(p, sizeof(p), dir, d);
		dh = opendir(p);
		if (!dh)
			die("opendir", p);
		errno = 0;
		while ((de = readdir(dh))) {
			if (de->d_name[0] == '.')
				continue;
			if (fstatat(dirfd(dh), de->d_name, &st, AT_SYMLINK_NOFOLLOW))
				die("stat", de->d_name);
			seen++;
		}
		if (errno)
			die("readdir", p);
		closedir(dh);
	}
	return seen;
}

static void read_all(const char *dir, long n)
{
	char p[4096];
	ssize_t r;
	long i;
	int fd;

	for (i = 0; i < n; i++) {
		file_path(p, sizeof(p), dir, i);
		fd = open(p, O_RDONLY);
		if (fd < 0)
			die("open", p);
		while ((r = read(fd, buf, sizeof(buf))) > 0)
			;
		if (r < 0)
			die("read", p);
		close(fd);
	}
}

static void unlink_all(const char *dir, long n)
{
	char p[4096];
	long i;
	int d;

	for (i = 0; i < n; i++) {
		file_path(p, sizeof(p), dir, i);
		if (unlink(p))
			die("unlink", p);
	}
	for (d = 0; d < NDIRS; d++) {
		dir_path(p, sizeof(p), dir, d);
		if (rmdir(p))
			die("rmdir", p);
	}
	if (rmdir(dir))
		die("rmdir", dir);
}

int main(int argc, char **argv)
{
	const char *op, *dir;
	size_t size = 100;
	double t;
	long n;

	if (argc < 4 || argc > 5) {
		fprintf(stderr, "usage: fsbtree create|stat|read|unlink|sync DIR NFILES [SIZE]\n");
		return 2;
	}
	op = argv[1];
	dir = argv[2];
	n = atol(argv[3]);
	if (argc == 5)
		size = strtoul(argv[4], NULL, 0);
	t = now();
	if (!strcmp(op, "create")) {
		create(dir, n, size);
	} else if (!strcmp(op, "stat")) {
		long seen = stat_all(dir);

		if (seen != n) {
			fprintf(stderr, "fsbtree: %ld entries listed, %ld created\n", seen, n);
			return 1;
		}
	} else if (!strcmp(op, "read")) {
		read_all(dir, n);
	} else if (!strcmp(op, "unlink")) {
		unlink_all(dir, n);
	} else if (!strcmp(op, "sync")) {
		int fd = open(dir, O_RDONLY | O_DIRECTORY);

		if (fd < 0)
			die("open", dir);
		if (syncfs(fd))
			die("syncfs", dir);
		close(fd);
	} else {
		fprintf(stderr, "fsbtree: unknown operation '%s'\n", op);
		return 2;
	}
	printf("%s %ld files: %.3f s\n", op, n, now() - t);
	return 0;
}
