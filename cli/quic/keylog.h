/* SPDX-License-Identifier: MIT */
/*
 * keylog.h - TLS key log files (the SSLKEYLOGFILE format that TLS
 * libraries write) for the QUIC secrets of TLS 1.3 connections.
 *
 * A line is "LABEL CLIENT_RANDOM SECRET": the label, the connection's
 * ClientHello random (32 bytes) and the secret, both in hex, separated by
 * spaces or tabs.  The labels kept are those QUIC's packet protection uses:
 *   CLIENT_EARLY_TRAFFIC_SECRET       0-RTT (the client's)
 *   CLIENT_HANDSHAKE_TRAFFIC_SECRET   Handshake, client to server
 *   SERVER_HANDSHAKE_TRAFFIC_SECRET   Handshake, server to client
 *   CLIENT_TRAFFIC_SECRET_0           1-RTT, client to server
 *   SERVER_TRAFFIC_SECRET_0           1-RTT, server to client
 * Other labels (EXPORTER_SECRET, CLIENT_RANDOM of TLS 1.2, ...) are
 * ignored, as are blank lines and lines that start with '#'.  The secrets
 * of one connection are gathered by its client random, in any order, from
 * any number of files and for any number of connections (at most
 * KEYLOG_MAX_CONNS), and found again by it (keylog_find) through a table
 * under a keyed hash of the whole random.  A secret is 32 bytes (a SHA-256
 * suite) or 48 (SHA-384), the same for every secret of a connection.
 *
 * Secrets never appear in messages, and the buffers that held the file's
 * text are wiped; keylog_free() wipes the secrets.
 */
#ifndef AESECB_KEYLOG_H
#define AESECB_KEYLOG_H

#include <stddef.h>
#include <stdint.h>

enum keylog_label {
	KEYLOG_CLIENT_EARLY = 0,     /* 0-RTT */
	KEYLOG_CLIENT_HANDSHAKE,
	KEYLOG_SERVER_HANDSHAKE,
	KEYLOG_CLIENT_TRAFFIC,       /* 1-RTT, generation 0 */
	KEYLOG_SERVER_TRAFFIC,
	KEYLOG_NLABELS
};

#define KEYLOG_RANDOM_LEN 32
#define KEYLOG_SECRET_MAX 48
#define KEYLOG_LINE_MAX 1024         /* characters, without the newline */
#define KEYLOG_MAX_CONNS 65536
#define KEYLOG_NONE ((size_t)-1)     /* no connection */

/* The secrets of one connection. */
struct keylog_conn {
	uint8_t client_random[KEYLOG_RANDOM_LEN];
	unsigned have;                               /* bit (1u << label) */
	size_t secret_len;                           /* 32 or 48 */
	uint8_t secret[KEYLOG_NLABELS][KEYLOG_SECRET_MAX];
	unsigned long line[KEYLOG_NLABELS];          /* where each was: */
	unsigned file[KEYLOG_NLABELS];               /* index in files[] */
};

struct keylog {
	struct keylog_conn *conns;   /* in the order first seen */
	size_t n, cap;
	size_t *index;               /* hash of the client randoms */
	size_t index_size;           /* 0 or a power of two > 2 * n */
	unsigned long lines;         /* lines read */
	unsigned long secrets;       /* secrets kept */
	unsigned long ignored;       /* lines of other labels */
	char **files;                /* the files read, in order */
	unsigned nfiles;
	unsigned long probes;        /* entries of the index looked at while
	                                loading (about one per line) */
};

/* Results: 0 or negative. */
#define KEYLOG_OK       0
#define KEYLOG_EFORMAT (-1)  /* a malformed line (err->line says which) */
#define KEYLOG_EIO     (-2)  /* cannot open or read the file */
#define KEYLOG_ENOMEM  (-3)
#define KEYLOG_ELIMIT  (-4)  /* more than KEYLOG_MAX_CONNS connections */

struct keylog_error {
	int code;
	unsigned long line;          /* 0 when not about a line */
	char msg[200];               /* without file or line */
};

/* An empty key log. */
void keylog_init(struct keylog *kl);

/* Wipe the secrets and free the memory; kl is empty again. */
void keylog_free(struct keylog *kl);

/*
 * Add the lines of the file at path to kl (a file after others: its name
 * is kl->files[kl->nfiles - 1] afterwards).  Returns KEYLOG_OK or an
 * error code (also in err->code), err->line and err->msg telling what
 * went wrong; on error kl keeps what earlier lines added.  A line longer
 * than KEYLOG_LINE_MAX is an error as soon as its next character is read,
 * so that a file with no newline (a device) ends there.
 */
int keylog_read(struct keylog *kl, const char *path, struct keylog_error *err);

/*
 * One line (without its newline; a trailing '\r' is ignored), numbered
 * lineno for messages, of the file read last (index 0 when none has been
 * read).  Used by keylog_read(); the caller wipes the text.
 */
int keylog_add_line(struct keylog *kl, const char *text, size_t len,
                    unsigned long lineno, struct keylog_error *err);

/* The connection of a client random (an index in kl->conns), or
 * KEYLOG_NONE. */
size_t keylog_find(const struct keylog *kl,
                   const uint8_t random[KEYLOG_RANDOM_LEN]);

/* The name of the file a connection's secret of a label was read from:
 * what keylog_read() was given, or NULL for lines added directly. */
const char *keylog_file_of(const struct keylog *kl, size_t conn,
                           enum keylog_label label);

/* The label's name as written in key logs. */
const char *keylog_label_name(enum keylog_label label);

#endif
