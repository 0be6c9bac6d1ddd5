/* SPDX-License-Identifier: MIT */
/*
 * hpconf.c - the configuration of "aesecb hp-mask".  See hpconf.h.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/common.h"
#include "quic/hpconf.h"
#include "common/num.h"

void hp_conf_init(struct hp_conf *c)
{
	memset(c, 0, sizeof *c);
	c->version = QUIC_VERSION_1;
	c->hash = QUIC_SHA256;
	c->dcid_len = QUIC_DCID_LEN_UNKNOWN;
}

static void drop_packet(struct hp_conf *c)
{
	if (c->packet != NULL) {
		aesecb_wipe(c->packet, c->packet_len);
		free(c->packet);
	}
	c->packet = NULL;
	c->packet_len = 0;
}

void hp_conf_free(struct hp_conf *c)
{
	cli_key_wipe(&c->common.key);
	cli_key_wipe(&c->secret);
	drop_packet(c);
	free(c->keylogs);
	aesecb_wipe(c, sizeof *c);
}

/* A character for a message: printable as itself, else as \xNN. */
static const char *show_char(int c, char buf[8])
{
	if (c > ' ' && c < 0x7f)
		snprintf(buf, 8, "%c", c);
	else
		snprintf(buf, 8, "\\x%02x", (unsigned)c & 0xffu);
	return buf;
}

/* --protect HEX, --unprotect HEX or --unprotect -: the packet decoded
 * (whitespace ignored); the last one given counts. */
static int parse_packet(struct hp_conf *c, const char *opt, const char *hex)
{
	struct cli_hex h;
	size_t len = strlen(hex), n;
	uint8_t *p;
	char cb[8];
	int r;

	if (c->packet_opt != NULL && strcmp(c->packet_opt, opt) != 0)
		c->both = 1;
	c->packet_opt = opt;
	c->mode = strcmp(opt, "--protect") == 0 ? HP_PROTECT : HP_UNPROTECT;
	if (c->mode == HP_UNPROTECT && strcmp(hex, "-") == 0) {
		drop_packet(c);
		c->stream = 1;
		return 0;
	}
	/* check and count first, then decode into a buffer of the size */
	r = cli_hex_decode(&h, CLI_HEX_SKIP_SPACE | CLI_HEX_COUNT, NULL, 0,
	                   hex, len);
	if (r == CLI_HEX_BAD) {
		cli_err("%s: bad hex digit '%s' at character %llu", opt,
		        show_char((unsigned char)hex[h.chars], cb), h.chars + 1);
		return EXIT_USAGE;
	}
	if (h.digits == 0) {
		cli_err("%s: the packet is empty", opt);
		return EXIT_USAGE;
	}
	if (r == CLI_HEX_ODD) {
		cli_err("%s: odd number of hex digits (%llu)", opt, h.digits);
		return EXIT_USAGE;
	}
	n = (size_t)(h.digits / 2);
	if ((p = malloc(n)) == NULL) {
		cli_err("out of memory");
		return EXIT_IO;
	}
	cli_hex_decode(&h, CLI_HEX_SKIP_SPACE, p, n, hex, len);
	drop_packet(c);
	c->packet = p;
	c->packet_len = n;
	c->stream = 0;
	return 0;
}

static int parse_odcid(struct hp_conf *c, const char *hex)
{
	struct cli_hex h;
	char cb[8];
	int r = cli_hex_decode(&h, CLI_HEX_SKIP_SPACE | CLI_HEX_COUNT, c->odcid,
	                       sizeof c->odcid, hex, strlen(hex));

	if (r == CLI_HEX_BAD) {
		cli_err("--odcid: bad hex digit '%s' at character %llu",
		        show_char((unsigned char)hex[h.chars], cb), h.chars + 1);
		return EXIT_USAGE;
	}
	if (r == CLI_HEX_ODD) {
		cli_err("--odcid: odd number of hex digits (%llu)", h.digits);
		return EXIT_USAGE;
	}
	if (h.digits / 2 > QUIC_MAX_CID_LEN) {
		cli_err("--odcid: the connection ID is %llu bytes; QUIC versions "
		        "1 and 2 allow at most %d", h.digits / 2,
		        QUIC_MAX_CID_LEN);
		return EXIT_USAGE;
	}
	c->odcid_len = (size_t)(h.digits / 2);
	c->have_odcid = 1;
	return 0;
}

static int parse_version(struct hp_conf *c, const char *arg)
{
	char safe[64];  /* room for CLI_WITHHELD */
	int st = quic_version_parse(arg, &c->version);

	if (st == QUIC_EVERSION) {
		cli_err("--quic-version: unknown QUIC version 0x%08lx (known: 1, "
		        "2, draft-29 and draft-v2)", (unsigned long)c->version);
		return EXIT_USAGE;
	}
	if (st != QUIC_OK) {
		cli_err("--quic-version: not a version: '%s' (known: 1, 2, "
		        "draft-29 and draft-v2)",
		        cli_printable(arg, safe, sizeof safe));
		return EXIT_USAGE;
	}
	c->have_version = 1;
	return 0;
}

static int parse_hash(struct hp_conf *c, const char *arg)
{
	char safe[64];  /* room for CLI_WITHHELD */

	if (quic_hash_parse(arg, &c->hash) != QUIC_OK) {
		cli_err("--hash: unknown hash '%s' (known: sha256, sha384)",
		        cli_printable(arg, safe, sizeof safe));
		return EXIT_USAGE;
	}
	c->have_hash = 1;
	return 0;
}

static int parse_pn_offset(struct hp_conf *c, const char *arg)
{
	uint64_t v;

	if (cli_num_parse(arg, strlen(arg), SIZE_MAX, &v) != CLI_NUM_OK) {
		cli_err("--pn-offset: not a byte offset: '%s'", cli_safe(arg));
		return EXIT_USAGE;
	}
	c->pn_offset = (size_t)v;
	c->have_pn_offset = 1;
	return 0;
}

static int parse_dcid_len(struct hp_conf *c, const char *arg)
{
	char safe[64];  /* room for CLI_WITHHELD */
	uint64_t v;

	if (cli_num_parse(arg, strlen(arg), QUIC_MAX_CID_LEN, &v) !=
	    CLI_NUM_OK) {
		cli_err("--dcid-len: not a connection ID length (0 to %d): '%s'",
		        QUIC_MAX_CID_LEN, cli_printable(arg, safe, sizeof safe));
		return EXIT_USAGE;
	}
	c->dcid_len = (size_t)v;
	return 0;
}

static int parse_port(struct hp_conf *c, const char *arg)
{
	char safe[64];  /* room for CLI_WITHHELD */
	uint64_t v;

	if (cli_num_parse(arg, strlen(arg), 65535, &v) != CLI_NUM_OK ||
	    v == 0) {
		cli_err("--port: not a UDP port (1 to 65535): '%s'",
		        cli_printable(arg, safe, sizeof safe));
		return EXIT_USAGE;
	}
	c->port = (unsigned)v;
	return 0;
}

/* Each --keylog FILE is one more key log, read in the order given. */
static int add_keylog(struct hp_conf *c, const char *path)
{
	const char **k = realloc(c->keylogs, (c->nkeylogs + 1) * sizeof *k);

	if (k == NULL) {
		cli_err("out of memory");
		return EXIT_IO;
	}
	k[c->nkeylogs++] = path;
	c->keylogs = k;
	return 0;
}

int hp_conf_option(struct hp_conf *c, int opt, const char *arg)
{
	switch (opt) {
	case HP_OPT_BLOCK:
		c->block = 1;
		return 0;
	case HP_OPT_PROTECT:
		return parse_packet(c, "--protect", arg);
	case HP_OPT_UNPROTECT:
		return parse_packet(c, "--unprotect", arg);
	case HP_OPT_PN_OFFSET:
		return parse_pn_offset(c, arg);
	case HP_OPT_INITIAL:
		c->initial = 1;
		return 0;
	case HP_OPT_ODCID:
		return parse_odcid(c, arg);
	case HP_OPT_SERVER:
		c->server_only = 1;
		return 0;
	case HP_OPT_SECRET:
		return cli_keysrc_load(&c->secret, &cli_kind_secret,
		                       CLI_KEYSRC_HEX, arg);
	case HP_OPT_SECRET_FILE:
		return cli_keysrc_load(&c->secret, &cli_kind_secret,
		                       CLI_KEYSRC_FILE, arg);
	case HP_OPT_SECRET_ENV:
		return cli_keysrc_load(&c->secret, &cli_kind_secret,
		                       CLI_KEYSRC_ENV, arg);
	case HP_OPT_HASH:
		return parse_hash(c, arg);
	case HP_OPT_QUIC_VERSION:
		return parse_version(c, arg);
	case HP_OPT_DCID_LEN:
		return parse_dcid_len(c, arg);
	case HP_OPT_KEYLOG:
		return add_keylog(c, arg);
	case HP_OPT_JSON:
		c->json = 1;
		return 0;
	case HP_OPT_SUMMARY:
		c->summary = 1;
		return 0;
	case HP_OPT_PORT:
		return parse_port(c, arg);
	default:
		return cli_option(&c->common, opt, arg);
	}
}

/* ------------------------------------------------------------------ */
/* How the options combine. */

/* The key sources: how many, and whether they may stand together
 * (with --unprotect, --initial beside a secret or key logs). */
static int check_sources(const struct hp_conf *c)
{
	int keylog = c->nkeylogs != 0;
	int sources = c->common.key.given + c->initial + c->secret.given +
	              keylog;
	int unprotect = c->mode == HP_UNPROTECT;

	if (sources > 1 && !(unprotect && sources == 2 && c->initial &&
	                     !c->common.key.given))
		return cli_usage("more than one key source: give one of -k, -K, "
		                 "--key-env, --initial, --secret, --secret-file, "
		                 "--secret-env or --keylog (with --unprotect, "
		                 "--initial may stand with a secret or --keylog)");
	if (sources == 0)
		return cli_usage("no key given: use -k HEX, -K FILE or --key-env "
		                 "VAR%s", c->mode != HP_MASKS ? ", --initial, or "
		                 "--secret HEX, --secret-file FILE or --secret-env "
		                 "VAR" : "");
	return 0;
}

/* What goes with --initial, and with a secret. */
static int check_key_options(const struct hp_conf *c)
{
	if (!c->initial && (c->have_odcid || c->server_only))
		return cli_usage("%s needs --initial", c->have_odcid ?
		                 "--odcid" : "--server");
	if (c->initial && c->server_only && !c->have_odcid)
		return cli_usage("a server's Initial is keyed by the client's "
		                 "first DCID: give --odcid");
	if (!c->secret.given && c->have_hash)
		return cli_usage("--hash needs --secret, --secret-file or "
		                 "--secret-env");
	if (!c->secret.given && c->nkeylogs == 0 && c->have_version)
		return cli_usage("--quic-version needs --secret, --secret-file, "
		                 "--secret-env or --keylog");
	if (c->secret.given && c->secret.len != quic_hash_len(c->hash))
		return cli_usage("the secret is %zu bytes; with %s secrets are "
		                 "%zu bytes (%zu hex digits)%s", c->secret.len,
		                 quic_hash_name(c->hash), quic_hash_len(c->hash),
		                 2 * quic_hash_len(c->hash), !c->have_hash ?
		                 "; give --hash sha384 for a 48-byte secret" : "");
	return 0;
}

/* What --protect and --unprotect take, and what needs one of them. */
static int check_mode(const struct hp_conf *c)
{
	if (c->nkeylogs != 0 && c->mode != HP_UNPROTECT)
		return cli_usage("--keylog needs --unprotect");
	if (c->json && c->mode != HP_UNPROTECT)
		return cli_usage("--json needs --unprotect");
	if (c->summary && c->mode != HP_UNPROTECT)
		return cli_usage("--summary needs --unprotect");
	if (c->port != 0 && !c->stream)
		return cli_usage("--port is for captures: it needs --unprotect -");
	if (c->have_pn_offset && (c->stream || c->nkeylogs != 0))
		return cli_usage("--pn-offset is for one packet given with a "
		                 "single key source: not with %s",
		                 c->nkeylogs != 0 ? "--keylog" : "--unprotect -");
	if (c->mode != HP_MASKS) {
		if (c->block)
			return cli_usage("--block cannot be used with %s",
			                 c->packet_opt);
		if (c->noperands != 0 && !c->stream)
			return cli_usage("%s takes no SAMPLE_HEX arguments",
			                 c->packet_opt);
		return 0;
	}
	if (c->have_pn_offset || c->dcid_len != QUIC_DCID_LEN_UNKNOWN)
		return cli_usage("%s needs --protect or --unprotect",
		                 c->have_pn_offset ? "--pn-offset" : "--dcid-len");
	if (c->initial || c->secret.given)
		return cli_usage("%s derives the hp key from a packet: it needs "
		                 "--protect or --unprotect", c->initial ?
		                 "--initial" : "a secret");
	return 0;
}

int hp_conf_check(const struct hp_conf *c)
{
	int rc;

	if (c->both)
		return cli_usage("--protect and --unprotect cannot be used "
		                 "together");
	if ((rc = check_mode(c)) != 0 || (rc = check_sources(c)) != 0)
		return rc;
	return check_key_options(c);
}

int hp_conf_keylogs(const struct hp_conf *c, struct keylog *kl)
{
	struct keylog_error err;
	size_t i;
	int rc;

	for (i = 0; i < c->nkeylogs; i++) {
		rc = keylog_read(kl, c->keylogs[i], &err);
		if (rc == KEYLOG_OK)
			continue;
		if (err.line != 0)
			cli_err("%s:%lu: %s", cli_safe(c->keylogs[i]), err.line,
			        err.msg);
		else
			cli_err("--keylog: %s: %s", cli_safe(c->keylogs[i]),
			        err.msg);
		return rc == KEYLOG_EIO || rc == KEYLOG_ENOMEM ? EXIT_IO
		                                               : EXIT_USAGE;
	}
	return 0;
}
