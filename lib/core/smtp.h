#ifndef SMTP_H
#define SMTP_H
/*
 * Mail settings and SMTP delivery (libcurl).  The settings come from, in
 * rising order of precedence: the config file, the environment, and the
 * command line (the caller overwrites fields after mail_settings_load()).
 *
 * The config file: $PERFSIFT_CONFIG, else $XDG_CONFIG_HOME/perfsift/config,
 * else ~/.config/perfsift/config; a missing file is no error.  The
 * environment: PERFSIFT_FROM, PERFSIFT_SMTP_URL, PERFSIFT_SMTP_USER,
 * PERFSIFT_SMTP_PASSWORD.  The password is never read from the command
 * line: PERFSIFT_SMTP_PASSWORD, else ~/.netrc (libcurl's netrc support).
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
	char *config_path;		/* the file read, for messages */
};

/*
 * Read the config file and the environment into s (zeroed first).
 * Returns 0; -1 after error("path:line: ...") for a bad line or key.
 */
int mail_settings_load(struct mail_settings *s);
void mail_settings_release(struct mail_settings *s);
void addr_list_add(struct addr_list *l, const char *addr);
void addr_list_release(struct addr_list *l);

/*
 * Send msg[0..len) (a complete RFC 5322 message, CRLF or LF line ends)
 * through s->smtp_url: MAIL FROM from, RCPT TO each of rcpt[0..nrcpt).
 * Returns 0; -1 after error() naming the server's reply (or libcurl's
 * reason: refused, timeout, TLS) when anything failed.
 */
int smtp_send(const struct mail_settings *s, const char *from,
	      const char *const *rcpt, size_t nrcpt, const char *msg,
	      size_t len);

#endif
