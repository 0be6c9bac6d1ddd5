/* SPDX-License-Identifier: MIT */
/*
 * Stand-in for <check.h>, used by configure when the Check unit-test
 * framework was not found: building a unit test then stops here with the
 * reason, so 'make check' fails instead of passing without its unit tests.
 * The library and the tool do not need Check.
 */
#error "the unit tests need the Check framework: install the Debian package check (found through pkg-config), run configure again, then make check"
/* a missing header is fatal: compilation ends here, after the message */
#include <check-framework-not-installed.h>
