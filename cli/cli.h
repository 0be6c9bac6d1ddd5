/* SPDX-License-Identifier: MIT */
/*
 * cli.h - what a command file of the aesecb tool includes: the shared
 * pieces, one header per topic, and the commands.
 */
#ifndef AESECB_CLI_H
#define AESECB_CLI_H

#include "aesecb.h"
#include "backend.h"
#include "hex.h"
#include "json.h"
#include "keys.h"
#include "msg.h"
#include "opt.h"
#include "printable.h"

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
