/* SPDX-License-Identifier: MIT */
/*
 * check_version.c - the version macros of <aesecb.h> agree with the
 * package version configure was given (PACKAGE_VERSION, split into
 * PACKAGE_VERSION_MAJOR/MINOR/PATCH in config.h) and with aesecb_version().
 *
 * Plain C (no Check): exit 0 when everything agrees, 1 otherwise.
 */
/* The installed header first, on its own: it must not need config.h. */
#include <aesecb.h>

#include <config.h>

#include <stdio.h>
#include <string.h>

/* The macros must work in #if (that is what they are for). */
#if !defined(AESECB_VERSION_NUMBER) || AESECB_VERSION_NUMBER < 0
#error "AESECB_VERSION_NUMBER is not a preprocessor number"
#endif
#if AESECB_VERSION_NUMBER != ((AESECB_VERSION_MAJOR << 16) | \
	(AESECB_VERSION_MINOR << 8) | AESECB_VERSION_PATCH)
#error "AESECB_VERSION_NUMBER is not 0xMMmmpp"
#endif

static int failures;

static void check_int(const char *what, long got, long want)
{
	if (got == want) {
		printf("ok: %s = %ld\n", what, got);
	} else {
		printf("FAIL: %s = %ld, expected %ld\n", what, got, want);
		failures++;
	}
}

static void check_str(const char *what, const char *got, const char *want)
{
	if (got != NULL && strcmp(got, want) == 0) {
		printf("ok: %s = \"%s\"\n", what, got);
	} else {
		printf("FAIL: %s = %s%s%s, expected \"%s\"\n", what,
		       got ? "\"" : "", got ? got : "NULL", got ? "\"" : "",
		       want);
		failures++;
	}
}

int main(void)
{
	char macros[64];

	check_int("AESECB_VERSION_MAJOR", AESECB_VERSION_MAJOR,
		  PACKAGE_VERSION_MAJOR);
	check_int("AESECB_VERSION_MINOR", AESECB_VERSION_MINOR,
		  PACKAGE_VERSION_MINOR);
	check_int("AESECB_VERSION_PATCH", AESECB_VERSION_PATCH,
		  PACKAGE_VERSION_PATCH);

	/* each part fits its byte of AESECB_VERSION_NUMBER */
	check_int("AESECB_VERSION_MINOR <= 255", AESECB_VERSION_MINOR <= 255, 1);
	check_int("AESECB_VERSION_PATCH <= 255", AESECB_VERSION_PATCH <= 255, 1);
	check_int("AESECB_VERSION_NUMBER", AESECB_VERSION_NUMBER,
		  (long)PACKAGE_VERSION_MAJOR * 65536 +
		  PACKAGE_VERSION_MINOR * 256 + PACKAGE_VERSION_PATCH);

	snprintf(macros, sizeof macros, "%d.%d.%d", AESECB_VERSION_MAJOR,
		 AESECB_VERSION_MINOR, AESECB_VERSION_PATCH);
	check_str("MAJOR.MINOR.PATCH from the macros", macros, PACKAGE_VERSION);
	check_str("aesecb_version()", aesecb_version(), PACKAGE_VERSION);

	if (failures != 0) {
		printf("%d check(s) failed: lib/aesecb.h, configure.ac's AC_INIT "
		       "and the library must carry the same version\n",
		       failures);
		return 1;
	}
	return 0;
}
