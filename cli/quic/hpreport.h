/* SPDX-License-Identifier: MIT */
/*
 * hpreport.h - "aesecb hp-mask --protect" and "--unprotect": the packet
 * engine (unprotect.h) run on a packet, a datagram given as an argument,
 * or a stream of datagrams read from files or standard input, and its
 * report in text or JSON, whole or summed up per connection
 * (--summary), with the messages and exit statuses of aesecb(1).
 */
#ifndef AESECB_HPREPORT_H
#define AESECB_HPREPORT_H

#include "aesecb.h"
#include "quic/hpconf.h"

/* Run what c asks for (HP_PROTECT or HP_UNPROTECT) on backend be; prints
 * the report and the errors, returns the exit status. */
int hp_report_run(const struct hp_conf *c, const aesecb_backend *be);

#endif
