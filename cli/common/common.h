/* SPDX-License-Identifier: MIT */
/*
 * common.h - the tool's shared pieces, one header per topic: what a file
 * of the commands, the QUIC code or the test-vector code includes to
 * report, parse options, read keys and hex, write JSON and pick backends.
 */
#ifndef AESECB_CLI_COMMON_H
#define AESECB_CLI_COMMON_H

#include "aesecb.h"
#include "common/backend.h"
#include "common/hex.h"
#include "common/json.h"
#include "common/keys.h"
#include "common/msg.h"
#include "common/opt.h"
#include "common/printable.h"

#endif
