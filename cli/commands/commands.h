/* SPDX-License-Identifier: MIT */
/*
 * commands.h - the commands of the aesecb tool, which main.c dispatches
 * to, and the shared pieces their files include.
 */
#ifndef AESECB_CLI_COMMANDS_H
#define AESECB_CLI_COMMANDS_H

#include "common/common.h"

/* Commands: each returns the exit status. argv[0] is the command name. */
int cmd_encrypt(int argc, char **argv);
int cmd_decrypt(int argc, char **argv);
int cmd_hpmask(int argc, char **argv);
int cmd_quickeys(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_acvp(int argc, char **argv);
int cmd_backends(int argc, char **argv);
int cmd_bench(int argc, char **argv);

#endif
