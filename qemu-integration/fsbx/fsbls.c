// SPDX-License-Identifier: GPL-2.0
/*
 * fsbls DIR: list a directory and fail if reading it fails.
 *
 * busybox's ls and find stop at a readdir() error without reporting it;
 * the corrupt-image scenarios need to know that the kernel returned one.
 * Prints the number of entries, or the error and exits 1.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	unsigned long n = 0;
	struct dirent *de;
	DIR *d;

	if (argc != 2) {
		fprintf(stderr, "usage: fsbls DIR\n");
		return 2;
	}
	d = opendir(argv[1]);
	if (!d) {
		fprintf(stderr, "fsbls: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	for (;;) {
		errno = 0;
		de = readdir(d);
		if (!de)
			break;
		n++;
	}
	if (errno) {
		fprintf(stderr, "fsbls: reading %s: %s (after %lu entries)\n",
			argv[1], strerror(errno), n);
		return 1;
	}
	closedir(d);
	printf("%lu entries\n", n);
	return 0;
}
