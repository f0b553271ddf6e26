#ifndef MESSAGE_H
#define MESSAGE_H
/*
 * A report as an RFC 5322 message, built with GMime 3 (headers encoded
 * per RFC 2047 where they are not ASCII, the body text/plain; charset=
 * UTF-8 in 7bit, 8bit or quoted-printable as its lines need, PNG charts
 * as base64 parts of a multipart/mixed), and written out: one .eml
 * (replaced atomically) or appended to an mbox in mboxrd form.
 */
#include <stddef.h>
#include <time.h>
#include "core/sbuf.h"

struct attachment {
	const char *name;	/* file name shown to the reader */
	const char *type;	/* "image/png" */
	const char *data;
	size_t len;
};

struct message_spec {
	const char *from;			/* "Name <addr>" or "addr" */
	const char *const *to;
	size_t nto;
	const char *const *cc;
	size_t ncc;
	const char *subject;			/* UTF-8 */
	const char *body;			/* UTF-8, '\n' line ends */
	const char *in_reply_to;		/* a Message-ID; NULL: none */
	const char *references;			/* Message-IDs, blank-separated;
						 * NULL: in_reply_to alone */
	const char *msgid_domain;		/* NULL: the host's name */
	time_t date;
	const struct attachment *att;
	size_t natt;
};

/*
 * The message's date: $SOURCE_DATE_EPOCH when set (reproducible output:
 * the Message-ID is then a hash of the message, without randomness),
 * else now.
 */
time_t message_date(void);

/*
 * Build the message into out ('\n' line ends).  *msgid gets its
 * Message-ID without the angle brackets (owned).  Returns 0; -1 after
 * error() for an address GMime cannot parse (the message names which).
 */
int message_build(const struct message_spec *m, struct sbuf *out,
		  char **msgid);
/*
 * Is v (what names it: "From", "--to") free of control characters?  A
 * CR or LF in an address, subject or Message-ID would end the header and
 * start another (a Bcc, an SMTP command).  0, or -1 after error(), which
 * says where, not the value.  message_build() and smtp_send() check
 * every value they are given; a command checks its options first.
 */
int mail_value_check(const char *what, const char *v);

/* Write msg to path through a temporary file renamed into place. 0/-1. */
int message_write_eml(const char *path, const char *msg, size_t len);

/*
 * Append msg to the mbox at path (created if missing) in mboxrd form:
 * a "From " line (envelope sender, date in asctime form), each line
 * that matches ^>*From  escaped with one more '>', and a blank line
 * after it.  One write under an exclusive lock.  0 or -1 after error().
 */
int message_append_mbox(const char *path, const char *msg, size_t len,
			const char *sender, time_t date);

#endif
