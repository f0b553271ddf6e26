#ifndef MAIL_H
#define MAIL_H
/*
 * struct mail_reader: the one mail decoder of the table importers.  It
 * reads an mbox of many messages, a single .eml, or plain pasted text
 * through struct input (so gzip and hashing keep working), line by line,
 * and gives for each message its headers and the decoded lines of its
 * text, each line with the raw file line it starts on and its quote
 * depth.
 *
 *	struct mail_reader r;
 *	struct mail_msg m;
 *	struct mail_line l;
 *	int rc;
 *
 *	mail_reader_init(&r, &in, MAIL_DETECT);
 *	while ((rc = mail_next_message(&r, &m)) != 0) {
 *		if (rc < 0)
 *			continue;	(broken headers: named, go on)
 *		while ((rc = mail_next_line(&r, &l)) > 0)
 *			use(l.text, l.len, l.lineno, l.quote_depth);
 *		if (rc < 0)
 *			(broken message: named with its line; roll it back)
 *	}
 *	mail_reader_release(&r);
 *
 * What is decoded: mbox "From " separators and ">From " escapes; folded
 * headers; RFC 2047 encoded words (B and Q; adjacent words joined) in
 * Subject and From; MIME multipart of any kind, nested up to
 * MAIL_DEPTH_MAX, of which only the text/plain parts that are not
 * attachments are text (text/html, attachments, message/rfc822 parts and
 * the preamble and epilogue are skipped); Content-Transfer-Encoding 7bit,
 * 8bit, binary, quoted-printable and base64; charsets to UTF-8 (iconv);
 * CRLF line ends; "> " quoting of any depth.
 *
 * Decisions (see also tests/t1400-mail-gmime.sh, which checks the
 * decoding against GMime):
 *  - A text line that is valid UTF-8 is kept as it is whatever charset
 *    its part declares (archives re-encode bodies and keep the header:
 *    the real robot email in samples/lkp says iso-8859-1 and holds UTF-8
 *    "±"); other lines are converted from the declared charset, from
 *    windows-1252 when there is none, it is us-ascii or iconv does not
 *    know it.  Bytes that do not convert, and NUL bytes, become U+FFFD:
 *    every line given out is valid UTF-8 without NUL.
 *  - The empty line before a multipart boundary or before the next mbox
 *    "From " line is part of the separator, not text (RFC 2046 5.1.1;
 *    as GMime, which also keeps an mbox's last blank line: so do we).
 *  - Quoted-printable: trailing white space of a raw line is dropped and
 *    "=" followed by white space is a soft line break (RFC 2045 6.7 (3);
 *    GMime keeps both as they are); an "=" not followed by two hex
 *    digits stays as it is (as GMime); lower case hex is accepted.
 *  - A header's CR or LF (from an encoded word) becomes a space.
 *  - Whitespace is not collapsed: text is byte-exact but for the above.
 *  - Broken message: a header block line that is neither "Name: value"
 *    nor a continuation, a header block over MAIL_HEADER_MAX, multipart
 *    nested deeper than MAIL_DEPTH_MAX, a decoded line over
 *    INPUT_LINE_MAX, and a multipart whose closing boundary never comes
 *    (a truncated email: its text so far is given out first).  A
 *    message imports completely or not at all, so the caller drops a
 *    broken one; in an mbox the next message is read normally.
 *  - An input error (read error, overlong raw line, NUL byte: see
 *    input_getline) breaks the current message and ends the file.
 */
#include <stddef.h>
#include "core/input.h"
#include "core/sbuf.h"

enum mail_kind {
	MAIL_DETECT = -1,	/* mail_reader_init(): ask mail_detect() */
	MAIL_NONE = 0,		/* plain text: one message, no headers */
	MAIL_EML = 1,		/* one RFC 5322 message */
	MAIL_MBOX = 2,		/* messages each after a "From " line */
};

#define MAIL_HEADER_MAX (1u << 20)	/* bytes in one header block */
#define MAIL_DEPTH_MAX 16		/* multipart nesting */

/*
 * What head (the first bytes of a file, e.g. input.head) holds:
 * MAIL_MBOX if its first line starts with "From " and a header line
 * follows; MAIL_EML if it starts with header lines (continuations
 * allowed) of which at least two are known mail headers (Received,
 * From, Date, Subject, Message-ID, MIME-Version, X-..., and so on), up
 * to the first blank line or the end of head; else MAIL_NONE.
 */
int mail_detect(const char *head, size_t len);

/* One message: its headers, decoded to UTF-8, "" when absent. */
struct mail_msg {
	int index;		/* 1-based number of the message in the file */
	long first_line;	/* raw line of its "From " line or first line */
	/* all borrowed from the reader, valid until mail_next_message() */
	const char *message_id;	/* without <>; "" if absent */
	const char *subject;	/* RFC 2047 decoded, unfolded */
	const char *from;	/* RFC 2047 decoded, unfolded, as written */
	const char *date;	/* as written, unfolded (not parsed) */
	const char *in_reply_to;	/* the first msg-id, without <> */
	const char *references;	/* msg-ids without <>, space-separated */
};

/* One decoded line of text. */
struct mail_line {
	/*
	 * Borrowed, valid until the next call: the line after its quote
	 * prefix, without line end, NUL-terminated, valid UTF-8.
	 * text - prefix_len is the whole decoded line.
	 */
	const char *text;
	size_t len;
	size_t prefix_len;	/* bytes of quote prefix stripped */
	long lineno;		/* raw file line on which the line starts */
	int quote_depth;	/* ">" levels stripped: "> > x" is 2 */
	/*
	 * 1: the line is of a format=flowed part (RFC 3676) and ends in a
	 * space: it goes on in the next line of the same quote depth
	 * (mail_next_unflowed() joins them)
	 */
	int flowed;
	/*
	 * 1: the raw line ended the file without its newline (a file cut
	 * short, or written so); of plain text parts only
	 */
	int cut;
};

/* The reader; the fields after kind are private. */
struct mail_reader {
	struct input *in;	/* borrowed */
	int kind;		/* MAIL_NONE, MAIL_EML or MAIL_MBOX */

	int state;
	int unread;		/* in->sb holds a line not consumed yet */
	int eof;		/* no more raw lines */
	int failed;		/* input error: nothing more to read */
	long lineno;		/* raw line number of the line in in->sb */
	long end_line;		/* last raw line of the current message */
	int nr_msgs;
	long msg_line;		/* first raw line of the current message */
	struct sbuf hdr;	/* unfolded header block, capped */
	struct sbuf fields[6];	/* decoded headers of the message */
	char *bound[MAIL_DEPTH_MAX];	/* owned: open multipart boundaries */
	int digest[MAIL_DEPTH_MAX];	/* multipart/digest: parts rfc822 */
	int depth;
	/* the text part being read */
	int enc;
	char charset[64];
	int flowed, delsp;	/* format=flowed, DelSp=yes */
	struct sbuf dec;	/* decoded bytes not given out yet, capped */
	size_t dec_pos;
	long dec_line;		/* raw line of the line starting at dec_pos */
	long dec_last;		/* raw line decoded last */
	unsigned b64_acc;
	int b64_bits;
	struct sbuf line;	/* the converted line given out */
	struct sbuf tmp;	/* encoded-word bytes, parameter values */
	void *cd;		/* iconv_t to UTF-8 from cd_charset, or NULL */
	char cd_charset[64];
	/* mail_next_unflowed(): the line joined, and one read ahead */
	struct sbuf joined, ahead;
	struct mail_line ahead_line;
	int has_ahead;
};

/*
 * Read messages from in (borrowed; the caller opens and closes it).
 * kind is MAIL_DETECT (mail_detect() on in->head) or a mail_kind.
 */
void mail_reader_init(struct mail_reader *r, struct input *in, int kind);
void mail_reader_release(struct mail_reader *r);

/*
 * Go to the next message (skipping what is left of the current one) and
 * decode its headers into *msg.  Returns 1 for a message, 0 at the end,
 * -1 for a message whose headers are broken, after error() with
 * "path:line: ..."; call again to go on with the next message.
 */
int mail_next_message(struct mail_reader *r, struct mail_msg *msg);

/*
 * The next decoded line of the current message's text.  Returns 1 for a
 * line, 0 at the end of the message's text, -1 when the message turns
 * out broken (after error() with "path:line: what was expected"; the
 * lines given before are its text up to there).  After 0 or -1 it keeps
 * returning 0 until mail_next_message().
 */
int mail_next_line(struct mail_reader *r, struct mail_line *line);

/*
 * mail_next_line() with the lines of a format=flowed part joined as RFC
 * 3676 4.2 says: a line that ends in a space goes on in the next one of
 * the same quote depth (the space removed with DelSp=yes), and a line's
 * stuffed leading space is dropped.  The joined line has the raw line
 * of its first piece, and is at most INPUT_LINE_MAX bytes (longer: the
 * message is broken, as for mail_next_line()).  Lines of other parts
 * are given as they are.  Returns as mail_next_line() does.
 */
int mail_next_unflowed(struct mail_reader *r, struct mail_line *line);

#endif
