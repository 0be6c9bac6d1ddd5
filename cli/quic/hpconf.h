/* SPDX-License-Identifier: MIT */
/*
 * hpconf.h - the configuration of "aesecb hp-mask": every option parsed
 * once into its typed value (hp_conf_option, as it stands on the command
 * line), how they combine checked by one function (hp_conf_check), and
 * read as it is by the packet engine (unprotect.h) and the report
 * (hpreport.h).  The rules and their messages are written here and
 * nowhere else.
 */
#ifndef AESECB_HPCONF_H
#define AESECB_HPCONF_H

#include <stddef.h>
#include <stdint.h>

#include "aesecb.h"
#include "quic/keylog.h"
#include "common/keys.h"
#include "common/opt.h"
#include "quic/quic.h"

enum hp_mode {
	HP_MASKS = 0,             /* masks of samples */
	HP_PROTECT,               /* --protect PACKET_HEX */
	HP_UNPROTECT              /* --unprotect DATAGRAM_HEX or - */
};

struct hp_conf {
	struct cli_opts common;   /* -k/-K/--key-env (a bare hp key), -b, -h */
	/* key sources */
	struct cli_key secret;    /* --secret, --secret-file, --secret-env */
	int initial;              /* --initial */
	int server_only;          /* --server */
	int have_odcid;           /* --odcid HEX */
	uint8_t odcid[QUIC_MAX_CID_LEN];
	size_t odcid_len;
	int have_hash;            /* --hash NAME */
	enum quic_hash hash;
	int have_version;         /* --quic-version V */
	uint32_t version;
	const char **keylogs;     /* --keylog FILE, each one given */
	size_t nkeylogs;
	/* where the packet number is */
	size_t dcid_len;          /* --dcid-len N, or QUIC_DCID_LEN_UNKNOWN */
	int have_pn_offset;       /* --pn-offset N */
	size_t pn_offset;
	/* what to do, on what */
	enum hp_mode mode;
	const char *packet_opt;   /* "--protect" or "--unprotect", or NULL */
	int both;                 /* both were given */
	uint8_t *packet;          /* the packet or datagram, decoded */
	size_t packet_len;
	int stream;               /* --unprotect -: datagrams from FILEs */
	char **operands;          /* SAMPLE_HEX, or the stream's FILEs */
	size_t noperands;
	unsigned port;            /* --port N: a capture's UDP port, 0 all */
	/* how to report */
	int block;                /* --block */
	int json;                 /* --json */
	int summary;              /* --summary */
};

/* Defaults: version 1, SHA-256, DCID length not given. */
void hp_conf_init(struct hp_conf *c);

/* Wipe the keys and free what the options allocated. */
void hp_conf_free(struct hp_conf *c);

/* The command's own long options (those of cli_opts aside). */
enum {
	HP_OPT_BLOCK = CLI_OPT_OWN,
	HP_OPT_PROTECT,
	HP_OPT_UNPROTECT,
	HP_OPT_PN_OFFSET,
	HP_OPT_INITIAL,
	HP_OPT_ODCID,
	HP_OPT_SERVER,
	HP_OPT_SECRET,
	HP_OPT_SECRET_FILE,
	HP_OPT_SECRET_ENV,
	HP_OPT_HASH,
	HP_OPT_QUIC_VERSION,
	HP_OPT_DCID_LEN,
	HP_OPT_KEYLOG,
	HP_OPT_JSON,
	HP_OPT_SUMMARY,
	HP_OPT_PORT
};

/*
 * One option (getopt's c and optarg): its value parsed and checked.
 * Returns 0, or an exit status after the message.
 */
int hp_conf_option(struct hp_conf *c, int opt, const char *arg);

/*
 * How the options combine, once all are in (the operands too): 0, or
 * EXIT_USAGE after the one message.
 */
int hp_conf_check(const struct hp_conf *c);

/* The key logs of --keylog, read into kl: 0, or an exit status after the
 * message naming the file (and line). */
int hp_conf_keylogs(const struct hp_conf *c, struct keylog *kl);

#endif
