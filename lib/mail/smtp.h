#ifndef SMTP_H
#define SMTP_H
/*
 * Mail settings and SMTP delivery (libcurl).  The settings come from, in
 * rising order of precedence: the config file, the environment, and the
 * command line (the caller overwrites fields after mail_settings_load()).
 *
 * The config file: $PERFSIFT_CONFIG, else $XDG_CONFIG_HOME/perfsift/config,
 * else ~/.config/perfsift/config.  A missing file is no error, except one
 * that $PERFSIFT_CONFIG names.  Its format: one "key = value" a line;
 * blank lines and lines whose first non-blank is '#' are skipped; blanks
 * around key and value are dropped; a key given twice keeps the last
 * value, except to and cc, which add up (each value may hold several
 * addresses separated by commas outside "..." and <...>).  The keys:
 * from, to, cc, smtp-url, smtp-user, smtp-starttls (required, optional,
 * off), smtp-cainfo, smtp-connect-timeout and smtp-timeout (whole
 * seconds, 1 to 86400), message-id-domain.
 *
 * The environment: PERFSIFT_FROM, PERFSIFT_SMTP_URL, PERFSIFT_SMTP_USER,
 * PERFSIFT_SMTP_PASSWORD, PERFSIFT_SMTP_CAINFO (an empty variable is
 * unset).  The password is never read from the command line or the
 * config file: PERFSIFT_SMTP_PASSWORD, else $NETRC or ~/.netrc
 * (libcurl's netrc support, optional).
 */
#include <stddef.h>

enum smtp_tls {
	SMTP_TLS_DEFAULT,	/* not set: optional for smtp://, implicit
				 * for smtps:// */
	SMTP_TLS_REQUIRED,	/* STARTTLS or fail */
	SMTP_TLS_OPTIONAL,	/* STARTTLS when the server offers it */
	SMTP_TLS_OFF,		/* never */
};

/* A list of addresses; owned strings. */
struct addr_list {
	char **v;
	size_t nr, alloc;
};

struct mail_settings {
	char *from;			/* owned; NULL: not set */
	struct addr_list to, cc;
	char *smtp_url;			/* smtp://host[:port], smtps://... */
	char *smtp_user;		/* AUTH user; NULL: no AUTH */
	char *smtp_password;		/* from the environment only */
	enum smtp_tls starttls;
	char *cainfo;			/* CA bundle for TLS; NULL: system */
	long connect_timeout;		/* seconds; default 30 */
	long timeout;			/* seconds, whole transfer; default 300 */
	char *msgid_domain;		/* Message-ID's right side; NULL:
					 * the host name */
	char *config_path;		/* the file read, for messages; NULL:
					 * none */
};

/*
 * Read the config file and the environment into s (zeroed first; the
 * timeouts get their defaults).  Returns 0; -1 after error("path:line:
 * ...") for a bad line, key or value (a bad PERFSIFT_SMTP_URL names the
 * variable), the caller's usage error; -2 after error() when the file
 * exists but cannot be read, or $PERFSIFT_CONFIG names a missing file.
 * s is to be released either way.
 */
int mail_settings_load(struct mail_settings *s);
void mail_settings_release(struct mail_settings *s);
/* Append a copy of addr. */
void addr_list_add(struct addr_list *l, const char *addr);
/*
 * Append each address of a comma-separated list (commas inside "..." or
 * <...> do not separate), trimmed; empty items are skipped.
 */
void addr_list_add_split(struct addr_list *l, const char *list);
void addr_list_release(struct addr_list *l);

/*
 * Is url an smtp:// or smtps:// URL with a host and without a user or
 * password in it?  0, or -1 after error() (which never repeats the URL:
 * it may hold a password).
 */
int smtp_url_check(const char *url);

/*
 * Send msg[0..len) (a complete RFC 5322 message, CRLF or LF line ends;
 * LF is sent as CRLF) through s->smtp_url: MAIL FROM from, RCPT TO each
 * of rcpt[0..nrcpt).  An address may be "Name <addr>": the part inside
 * the last <...> is used.  Every recipient must be accepted.  Returns 0;
 * -1 after error() naming the URL, the command and the server's reply,
 * with libcurl's reason (refused, timeout, TLS), when anything failed.
 * The password is never printed.
 */
int smtp_send(const struct mail_settings *s, const char *from,
	      const char *const *rcpt, size_t nrcpt, const char *msg,
	      size_t len);

#endif
