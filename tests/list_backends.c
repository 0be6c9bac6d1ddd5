/* SPDX-License-Identifier: MIT */
/*
 * list_backends.c - the library's backends, as its public functions give
 * them: one line each, "NAME ARCH", in the library's order.  Read by
 * tests/backend-lists.sh, which compares every list of backends the
 * project writes for people with this one.
 */
#include <stdio.h>

#include "aesecb.h"

int main(void)
{
	size_t i, n = aesecb_backend_count();

	for (i = 0; i < n; i++) {
		const aesecb_backend *be = aesecb_backend_get(i);

		if (be == NULL || aesecb_backend_name(be) == NULL ||
		    aesecb_backend_arch(be) == NULL) {
			fprintf(stderr, "list_backends: entry %zu of %zu has no "
			        "name or architecture\n", i, n);
			return 1;
		}
		printf("%s %s\n", aesecb_backend_name(be),
		       aesecb_backend_arch(be));
	}
	return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}
