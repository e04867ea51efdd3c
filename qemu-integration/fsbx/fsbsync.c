// SPDX-License-Identifier: GPL-2.0
/*
 * fsbsync fsync|fdatasync|syncfs FD: call it on an open file descriptor
 * the shell passed down (exec 3< FILE), so that the error state of that
 * open file (struct file's f_wb_err and f_sb_err) is what is tested.
 *
 * busybox's "sync -f" ignores syncfs()'s return value, and "sync FILE"
 * opens a file of its own each time.  Prints "ok" or the error; exits 0,
 * or 1 on an error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int fd, ret;

	if (argc != 3) {
		fprintf(stderr, "usage: fsbsync fsync|fdatasync|syncfs FD\n");
		return 2;
	}
	fd = atoi(argv[2]);
	if (!strcmp(argv[1], "fsync"))
		ret = fsync(fd);
	else if (!strcmp(argv[1], "fdatasync"))
		ret = fdatasync(fd);
	else if (!strcmp(argv[1], "syncfs"))
		ret = syncfs(fd);
	else {
		fprintf(stderr, "fsbsync: unknown call '%s'\n", argv[1]);
		return 2;
	}
	if (ret) {
		printf("%s(%d): %s\n", argv[1], fd, strerror(errno));
		return 1;
	}
	printf("%s(%d): ok\n", argv[1], fd);
	return 0;
}
