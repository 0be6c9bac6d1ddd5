/* SPDX-License-Identifier: MIT */
/*
 * cmd_quickeys.c - "aesecb quic-keys": the QUIC Initial secrets, packet
 * keys, IVs and header-protection keys of a Destination Connection ID
 * (RFC 9001 section 5.2, RFC 9369 section 3.3.1).
 *
 * Initial keys are derived from a value that travels in the clear, so they
 * protect nothing against an observer; they are still handled like keys:
 * hex is written without branches on the digits, and every buffer that
 * held them is wiped.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "commands/commands.h"
#include "common/hex.h"
#include "quic/quic.h"

static void help(FILE *f)
{
	fputs(
"Usage: aesecb quic-keys [--quic-version V] [--json] DCID_HEX\n"
"Prints the QUIC Initial secrets and keys of both directions for the\n"
"Destination Connection ID DCID_HEX (RFC 9001 section 5.2 for version 1,\n"
"RFC 9369 section 3.3.1 for version 2): HKDF-Extract with the version's\n"
"salt, then HKDF-Expand-Label \"client in\" and \"server in\", then the\n"
"AES-128-GCM key, IV and header-protection key of each.\n"
"\n"
"DCID_HEX is 0 to 20 bytes in hex (whitespace ignored; \"\" for an empty\n"
"connection ID).  It is the DCID of the client's first Initial packet.\n"
"\n"
"Options:\n"
"      --quic-version V   1 (default), 2, draft-29 or draft-v2 (the version\n"
"                         2 drafts); or the version number in hex,\n"
"                         0x00000001, 0x6b3343cf, 0xff00001d, 0x709a50c4\n"
"      --json             print one JSON object instead of lines\n"
"  -h, --help             show this help\n"
"\n"
"Output: one line per value, \"label: hex\" (the label, a colon, one space,\n"
"lowercase hex), in this order:\n"
"  client_secret: client_key: client_iv: client_hp:\n"
"  server_secret: server_key: server_iv: server_hp:\n"
"With --json, one object with the members \"version\" (the version number\n"
"as a hex string, \"0x00000001\" or \"0x6b3343cf\"), \"dcid\" (hex) and the\n"
"eight values above, all hex strings in lowercase.\n"
"\n"
"Exit status: 0 success; 2 usage error or invalid DCID; 4 I/O error.\n", f);
}

struct quickeys_opts {
	struct cli_opts common;   /* -h */
	uint32_t version;
	int json;
	const char *dcid_hex;
};

enum { OPT_VERSION = CLI_OPT_OWN, OPT_JSON };

static const struct option longopts[] = {
	{ "quic-version", required_argument, NULL, OPT_VERSION },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/* Decode the DCID argument.  Returns 0, or EXIT_USAGE after a message. */
static int parse_dcid(const char *s, uint8_t dcid[QUIC_MAX_CID_LEN],
                      size_t *dcid_len)
{
	struct cli_hex h;

	switch (cli_hex_decode(&h, CLI_HEX_SKIP_SPACE | CLI_HEX_COUNT, dcid,
	                       QUIC_MAX_CID_LEN, s, strlen(s))) {
	case CLI_HEX_OK:
		break;
	case CLI_HEX_ODD:
		return cli_usage("DCID_HEX has an odd number of hex digits "
		                 "(%llu)", h.digits);
	default:
		return cli_usage("DCID_HEX: invalid hex digit at position %llu",
		                 h.chars + 1);
	}
	if (h.digits / 2 > QUIC_MAX_CID_LEN)
		return cli_usage("the DCID is %llu bytes; QUIC connection IDs "
		                 "are at most %d bytes", h.digits / 2,
		                 QUIC_MAX_CID_LEN);
	*dcid_len = h.nout;
	return 0;
}

/* Writes 2n lowercase hex digits and a terminator; returns dst. */
static char *tohex(char *dst, const uint8_t *src, size_t n)
{
	*cli_hex_encode(dst, src, n, CLI_HEX_LOWER) = '\0';
	return dst;
}

struct field {
	const char *name;
	const uint8_t *bytes;
	size_t len;
};

static int print_keys(const struct quickeys_opts *o, const uint8_t *dcid,
                      size_t dcid_len, const struct quic_initial *k)
{
	const struct field fields[] = {
		{ "client_secret", k->client.secret, k->client.secret_len },
		{ "client_key", k->client.key, k->client.key_len },
		{ "client_iv", k->client.iv, QUIC_IV_LEN },
		{ "client_hp", k->client.hp, k->client.key_len },
		{ "server_secret", k->server.secret, k->server.secret_len },
		{ "server_key", k->server.key, k->server.key_len },
		{ "server_iv", k->server.iv, QUIC_IV_LEN },
		{ "server_hp", k->server.hp, k->server.key_len },
	};
	char text[2 * QUIC_MAX_HASH_LEN + 1];
	struct cli_json j;
	size_t i;

	if (!o->json) {
		for (i = 0; i < sizeof fields / sizeof fields[0]; i++)
			printf("%s: %s\n", fields[i].name,
			       tohex(text, fields[i].bytes, fields[i].len));
		aesecb_wipe(text, sizeof text);
		return cli_flush_stdout();
	}
	snprintf(text, sizeof text, "0x%08lx", (unsigned long)o->version);
	cli_json_start(&j, stdout, CLI_JSON_LISTING);
	cli_json_object(&j, NULL);
	cli_json_string(&j, "version", text);
	cli_json_hex(&j, "dcid", dcid, dcid_len, CLI_HEX_LOWER);
	for (i = 0; i < sizeof fields / sizeof fields[0]; i++)
		cli_json_hex(&j, fields[i].name, fields[i].bytes, fields[i].len,
		             CLI_HEX_LOWER);
	cli_json_end(&j);
	return cli_json_finish_stdout(&j);
}

static int parse(struct quickeys_opts *o, int argc, char **argv)
{
	int c, st, rc = 0;

	optind = 1;
	while (rc == 0 && !o->common.help &&
	       (c = cli_getopt(argc, argv, ":h", longopts)) != -1) {
		switch (c) {
		case OPT_VERSION:
			/* the value is not echoed: it may be a misplaced
			 * argument */
			st = quic_version_parse(optarg, &o->version);
			if (st == QUIC_EVERSION)
				return cli_usage("--quic-version: unknown QUIC "
				                 "version (known: 1, 2, draft-29 and "
				                 "draft-v2, numbered "
				                 QUIC_VERSIONS_KNOWN ")");
			if (st != QUIC_OK)
				return cli_usage("--quic-version takes 1, 2, "
				                 "draft-29, draft-v2 or a version "
				                 "number (0x00000001, 0x6b3343cf, "
				                 "0xff00001d, 0x709a50c4)");
			break;
		case OPT_JSON:
			o->json = 1;
			break;
		default:
			rc = cli_option(&o->common, c, optarg);
			break;
		}
	}
	if (rc != 0 || o->common.help)
		return rc;
	if (optind >= argc)
		return cli_usage("missing DCID_HEX (the Destination Connection "
		                 "ID in hex)");
	if (argc - optind > 1)
		return cli_usage("one DCID_HEX expected, %d arguments given",
		                 argc - optind);
	o->dcid_hex = argv[optind];
	return 0;
}

int cmd_quickeys(int argc, char **argv)
{
	struct quickeys_opts o;
	struct quic_initial keys;
	uint8_t dcid[QUIC_MAX_CID_LEN];
	size_t dcid_len = 0;
	int st, rc;

	memset(&o, 0, sizeof o);
	o.version = QUIC_VERSION_1;
	rc = parse(&o, argc, argv);
	if (rc != 0 || o.common.help)
		return rc != 0 ? rc : cli_help(help);
	if ((rc = parse_dcid(o.dcid_hex, dcid, &dcid_len)) != 0)
		return rc;
	st = quic_initial_keys(o.version, dcid, dcid_len, &keys);
	if (st != QUIC_OK) {
		cli_err("%s", quic_strerror(st));
		return EXIT_USAGE;
	}
	rc = print_keys(&o, dcid, dcid_len, &keys);
	quic_initial_wipe(&keys);
	return rc;
}
