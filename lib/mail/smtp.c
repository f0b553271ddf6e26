/*
 * Mail settings (config file, environment) and SMTP delivery through
 * libcurl (see smtp.h).  The server's replies are followed through
 * libcurl's debug callback, so that a failure names the command and the
 * reply, which libcurl's own message does not always hold.
 */
#include "core/compat.h"
#include "mail/message.h"
#include "core/dl.h"
#include "core/input.h"
#include "core/sbuf.h"
#include "mail/smtp.h"
#include "core/strparse.h"
#include <curl/curl.h>
#include <sys/stat.h>

#define CONNECT_TIMEOUT_DEFAULT 30
#define TIMEOUT_DEFAULT 300
#define TIMEOUT_MAX 86400
#define REPLY_MAX 512		/* bytes of a server reply kept */

void addr_list_add(struct addr_list *l, const char *addr)
{
	ALLOC_GROW(l->v, l->nr + 1, l->alloc);
	l->v[l->nr++] = xstrdup(addr);
}

void addr_list_add_split(struct addr_list *l, const char *list)
{
	const char *p = list, *start = list;
	int quoted = 0, angle = 0;

	for (;; p++) {
		if (*p == '"' && !angle)
			quoted = !quoted;
		else if (*p == '\\' && quoted && p[1])
			p++;
		else if (*p == '<' && !quoted)
			angle = 1;
		else if (*p == '>' && !quoted)
			angle = 0;
		if (*p && (*p != ',' || quoted || angle))
			continue;
		while (start < p && (*start == ' ' || *start == '\t'))
			start++;
		if (p > start) {
			const char *end = p;
			char *one;

			while (end[-1] == ' ' || end[-1] == '\t')
				end--;
			one = xstrndup(start, (size_t)(end - start));
			ALLOC_GROW(l->v, l->nr + 1, l->alloc);
			l->v[l->nr++] = one;
		}
		if (!*p)
			break;
		start = p + 1;
	}
}

void addr_list_release(struct addr_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

void mail_settings_release(struct mail_settings *s)
{
	free(s->from);
	addr_list_release(&s->to);
	addr_list_release(&s->cc);
	free(s->smtp_url);
	free(s->smtp_user);
	free(s->smtp_password);
	free(s->cainfo);
	free(s->msgid_domain);
	free(s->config_path);
	memset(s, 0, sizeof(*s));
}

/* Length of url's "smtp://" or "smtps://", or 0. */
static size_t scheme_len(const char *url)
{
	if (!strncasecmp(url, "smtp://", 7))
		return 7;
	if (!strncasecmp(url, "smtps://", 8))
		return 8;
	return 0;
}

/*
 * Why url is not one we send through, or NULL: smtp[s]://host[:port],
 * then anything libcurl takes (a path names the EHLO domain).
 */
static const char *url_problem(const char *url)
{
	const char *host = url + scheme_len(url), *end, *port, *c;
	long n;

	if (host == url)
		return "the scheme must be smtp:// or smtps://";
	for (c = url; *c; c++)
		if ((unsigned char)*c <= ' ' || *c == 0x7f)
			return "blanks or control characters in it";
	end = host + strcspn(host, "/?#");
	if (memchr(host, '@', (size_t)(end - host)))
		return "a user or password in the URL is refused (smtp-user or "
		       "PERFSIFT_SMTP_USER; the password in "
		       "PERFSIFT_SMTP_PASSWORD or ~/.netrc)";
	if (*host == '[') {	/* [IPv6] */
		port = memchr(host, ']', (size_t)(end - host));
		if (!port)
			return "no closing ']' after the IPv6 address";
		port++;
	} else {
		port = memchr(host, ':', (size_t)(end - host));
		if (!port)
			port = end;
	}
	if (port == host)
		return "no host";
	if (port == end)
		return NULL;
	if (*port != ':')
		return "junk after the host";
	for (c = port + 1, n = 0; c < end && n <= 65535; c++) {
		if (*c < '0' || *c > '9')
			return "the port must be a number";
		n = n * 10 + (*c - '0');
	}
	if (c == port + 1 || n < 1 || n > 65535)
		return "the port must be from 1 to 65535";
	return NULL;
}

int smtp_url_check(const char *url)
{
	const char *why = url_problem(url);

	return why ? error("bad SMTP URL: %s", why) : 0;
}

static void set_str(char **field, const char *value)
{
	free(*field);
	*field = xstrdup(value);
}

static int parse_tls(const char *v, enum smtp_tls *out)
{
	if (!strcmp(v, "required"))
		*out = SMTP_TLS_REQUIRED;
	else if (!strcmp(v, "optional"))
		*out = SMTP_TLS_OPTIONAL;
	else if (!strcmp(v, "off"))
		*out = SMTP_TLS_OFF;
	else
		return -1;
	return 0;
}

/* One "key = value" of the config file; 0 or error() with path:line. */
static int config_set(struct mail_settings *s, const char *path, long line,
		      const char *key, const char *v)
{
	const char *why;
	long n;

	if (!strcmp(key, "smtp-password"))
		return error("%s:%ld: the password is not read from the config "
			     "file: set PERFSIFT_SMTP_PASSWORD or use ~/.netrc",
			     path, line);
	if (!*v)
		return error("%s:%ld: '%s' has an empty value", path, line,
			     key);
	if (!strcmp(key, "from")) {
		set_str(&s->from, v);
	} else if (!strcmp(key, "to")) {
		addr_list_add_split(&s->to, v);
	} else if (!strcmp(key, "cc")) {
		addr_list_add_split(&s->cc, v);
	} else if (!strcmp(key, "smtp-url")) {
		why = url_problem(v);
		if (why)
			return error("%s:%ld: bad smtp-url: %s", path, line,
				     why);
		set_str(&s->smtp_url, v);
	} else if (!strcmp(key, "smtp-user")) {
		set_str(&s->smtp_user, v);
	} else if (!strcmp(key, "smtp-starttls")) {
		if (parse_tls(v, &s->starttls))
			return error("%s:%ld: smtp-starttls must be required, "
				     "optional or off, not '%s'", path, line,
				     v);
	} else if (!strcmp(key, "smtp-cainfo")) {
		set_str(&s->cainfo, v);
	} else if (!strcmp(key, "smtp-connect-timeout") ||
		   !strcmp(key, "smtp-timeout")) {
		if (str_to_long(v, &n) || n < 1 || n > TIMEOUT_MAX)
			return error("%s:%ld: %s must be whole seconds from 1 "
				     "to %d, not '%s'", path, line, key,
				     TIMEOUT_MAX, v);
		if (!strcmp(key, "smtp-timeout"))
			s->timeout = n;
		else
			s->connect_timeout = n;
	} else if (!strcmp(key, "message-id-domain")) {
		set_str(&s->msgid_domain, v);
	} else {
		return error("%s:%ld: unknown key '%s'", path, line, key);
	}
	return 0;
}

static int config_read(struct mail_settings *s, const char *path)
{
	struct input in;
	int r;

	if (input_open(&in, path, -1))
		return -2;
	while ((r = input_getline(&in)) > 0) {
		char *line = in.sb.buf, *eq, *key, *v;

		while (*line == ' ' || *line == '\t')
			line++;
		if (!*line || *line == '#')
			continue;
		eq = strchr(line, '=');
		if (!eq || eq == line) {
			r = error("%s:%ld: expected 'key = value', got '%.60s'",
				  path, in.line, line);
			break;
		}
		key = line;
		v = eq + 1;
		*eq = '\0';
		while (eq > key && (eq[-1] == ' ' || eq[-1] == '\t'))
			*--eq = '\0';
		while (*v == ' ' || *v == '\t')
			v++;
		sbuf_rtrim(&in.sb);
		r = config_set(s, path, in.line, key, v);
		if (r)
			break;
	}
	input_close(&in);
	return r;
}

/* The config file to read (owned), or NULL; *named: $PERFSIFT_CONFIG. */
static char *config_file(int *named)
{
	const char *e = getenv("PERFSIFT_CONFIG");

	*named = e && *e;
	if (*named)
		return xstrdup(e);
	e = getenv("XDG_CONFIG_HOME");
	if (e && *e)
		return xstrfmt("%s/perfsift/config", e);
	e = getenv("HOME");
	if (e && *e)
		return xstrfmt("%s/.config/perfsift/config", e);
	return NULL;
}

static const char *env(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? v : NULL;
}

int mail_settings_load(struct mail_settings *s)
{
	const char *v, *why;
	struct stat st;
	char *path;
	int named, r;

	memset(s, 0, sizeof(*s));
	s->connect_timeout = CONNECT_TIMEOUT_DEFAULT;
	s->timeout = TIMEOUT_DEFAULT;
	path = config_file(&named);
	if (path && stat(path, &st) && errno == ENOENT && !named) {
		free(path);
		path = NULL;
	}
	if (path) {
		s->config_path = path;
		r = config_read(s, path);
		if (r)
			return r;
	}
	if ((v = env("PERFSIFT_FROM")))
		set_str(&s->from, v);
	if ((v = env("PERFSIFT_SMTP_URL"))) {
		why = url_problem(v);
		if (why)
			return error("PERFSIFT_SMTP_URL: bad SMTP URL: %s", why);
		set_str(&s->smtp_url, v);
	}
	if ((v = env("PERFSIFT_SMTP_USER")))
		set_str(&s->smtp_user, v);
	if ((v = env("PERFSIFT_SMTP_PASSWORD")))
		set_str(&s->smtp_password, v);
	if ((v = env("PERFSIFT_SMTP_CAINFO")))
		set_str(&s->cainfo, v);
	return 0;
}

/*
 * The addr-spec of "Name <addr>" or "addr", as "<addr>" (owned), or
 * NULL after error(): an address with blanks or control characters would
 * let a header's text turn into SMTP commands.
 */
static char *envelope_addr(const char *a, const char *what)
{
	const char *lt = strrchr(a, '<'), *p, *end;
	char name[64];

	/* "r@x\r\nRCPT TO:<evil@x>" is no address of r's */
	snprintf(name, sizeof(name), "the %s address", what);
	if (mail_value_check(name, a))
		return NULL;
	if (lt) {
		p = lt + 1;
		end = strchr(p, '>');
		if (!end) {
			error("bad %s address '%s': no closing '>'", what, a);
			return NULL;
		}
	} else {
		p = a;
		while (*p == ' ' || *p == '\t')
			p++;
		end = p + strlen(p);
		while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
			end--;
	}
	if (end == p) {
		error("bad %s address '%s': empty", what, a);
		return NULL;
	}
	for (const char *c = p; c < end; c++)
		if ((unsigned char)*c <= ' ' || *c == 0x7f || *c == '<' ||
		    *c == '>') {
			error("bad %s address '%s'", what, a);
			return NULL;
		}
	return xstrfmt("<%.*s>", (int)(end - p), p);
}

/*
 * libcurl is loaded when the first message is sent, not linked: with
 * its dependencies (OpenSSL, Kerberos, LDAP, nghttp2, ...) it costs every
 * command about 6.5 MB of resident memory at start, which the import's
 * 64 MB bound (SPEC 11, tests/t2110-fio-memory.sh) cannot spare.  The
 * types and constants still come from <curl/curl.h>.
 */
#define LIBCURL_SONAME "libcurl.so.4"

static struct libcurl {
	CURLcode (*global_init)(long flags);
	CURL *(*easy_init)(void);
	CURLcode (*easy_setopt)(CURL *h, CURLoption opt, ...);
	CURLcode (*easy_perform)(CURL *h);
	CURLcode (*easy_getinfo)(CURL *h, CURLINFO info, ...);
	void (*easy_cleanup)(CURL *h);
	const char *(*easy_strerror)(CURLcode rc);
	struct curl_slist *(*slist_append)(struct curl_slist *l,
					   const char *s);
	void (*slist_free_all)(struct curl_slist *l);
} lc;

static int curl_ready(void)
{
	static const struct dl_sym syms[] = {
		{ "curl_global_init", offsetof(struct libcurl, global_init) },
		{ "curl_easy_init", offsetof(struct libcurl, easy_init) },
		{ "curl_easy_setopt", offsetof(struct libcurl, easy_setopt) },
		{ "curl_easy_perform", offsetof(struct libcurl, easy_perform) },
		{ "curl_easy_getinfo", offsetof(struct libcurl, easy_getinfo) },
		{ "curl_easy_cleanup", offsetof(struct libcurl, easy_cleanup) },
		{ "curl_easy_strerror",
		  offsetof(struct libcurl, easy_strerror) },
		{ "curl_slist_append", offsetof(struct libcurl, slist_append) },
		{ "curl_slist_free_all",
		  offsetof(struct libcurl, slist_free_all) },
	};
	static int state;	/* 0: not tried, 1: ready, -1: failed */
	CURLcode rc;
	char *why;

	if (state)
		return state > 0 ? 0 : -1;
	state = -1;
	if (dl_load(LIBCURL_SONAME, "libcurl4", syms, ARRAY_SIZE(syms), &lc,
		    &why)) {
		error("%s", why);
		free(why);
		return -1;
	}
	rc = lc.global_init(CURL_GLOBAL_DEFAULT);
	if (rc != CURLE_OK)
		return error("libcurl: cannot initialise: %s",
			     lc.easy_strerror(rc));
	state = 1;
	return 0;
}

/* What the server was last asked and what it answered. */
enum smtp_stage {
	STAGE_CONNECT,		/* waiting for the greeting */
	STAGE_EHLO,
	STAGE_STARTTLS,
	STAGE_AUTH,
	STAGE_MAIL,
	STAGE_RCPT,
	STAGE_DATA,		/* the DATA command */
	STAGE_MESSAGE,		/* the message sent, the verdict awaited */
};

struct conversation {
	enum smtp_stage stage;
	int quit;			/* QUIT sent: the failure is over */
	char command[REPLY_MAX];	/* MAIL FROM / RCPT TO line; never AUTH's
					 * arguments */
	struct sbuf reply;		/* the last reply line to it, or "" */
};

static void line_out(struct conversation *c, const char *s, size_t n)
{
	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
		n--;
	/* libcurl says QUIT after a failure too: keep what failed */
	if (n == 4 && !strncasecmp(s, "QUIT", 4))
		c->quit = 1;
	if (c->quit)
		return;
	sbuf_reset(&c->reply);
	c->command[0] = '\0';
	if (n >= 10 && !strncasecmp(s, "MAIL FROM:", 10)) {
		c->stage = STAGE_MAIL;
		snprintf(c->command, sizeof(c->command), "%.*s",
			 (int)(n - 10), s + 10);
	} else if (n >= 8 && !strncasecmp(s, "RCPT TO:", 8)) {
		c->stage = STAGE_RCPT;
		snprintf(c->command, sizeof(c->command), "%.*s",
			 (int)(n - 8), s + 8);
	} else if (n >= 4 && (!strncasecmp(s, "EHLO", 4) ||
			      !strncasecmp(s, "HELO", 4))) {
		c->stage = STAGE_EHLO;
	} else if (n == 8 && !strncasecmp(s, "STARTTLS", 8)) {
		c->stage = STAGE_STARTTLS;
	} else if (n >= 4 && !strncasecmp(s, "AUTH", 4)) {
		c->stage = STAGE_AUTH;
	} else if (n == 4 && !strncasecmp(s, "DATA", 4)) {
		c->stage = STAGE_DATA;
	} else if (c->stage == STAGE_DATA) {
		c->stage = STAGE_MESSAGE;	/* the end of data */
	} else {
		/*
		 * The answer to an AUTH challenge: credentials, never kept.
		 * The stage stays STAGE_AUTH.
		 */
	}
}

static void line_in(struct conversation *c, const char *s, size_t n)
{
	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
		n--;
	if (!n || c->quit)
		return;
	if (n > REPLY_MAX)
		n = REPLY_MAX;
	/* a 354 go-ahead means the message is next */
	if (c->stage == STAGE_DATA && n >= 3 && !strncmp(s, "354", 3))
		c->stage = STAGE_MESSAGE;
	sbuf_reset(&c->reply);
	sbuf_add(&c->reply, s, n);
}

static int on_debug(CURL *h UNUSED, curl_infotype type, char *data,
		    size_t size, void *arg)
{
	struct conversation *c = arg;
	const char *p = data, *end = data + size;

	if (type != CURLINFO_HEADER_IN && type != CURLINFO_HEADER_OUT)
		return 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);

		if (type == CURLINFO_HEADER_IN)
			line_in(c, p, n);
		else
			line_out(c, p, n);
		p += n;
	}
	return 0;
}

/* The message uploaded with its bare LFs sent as CRLF. */
struct upload {
	const char *msg;
	size_t len, off;
	int lf_due;		/* '\r' sent, the '\n' at off comes next */
};

static size_t on_read(char *buf, size_t size, size_t nitems, void *arg)
{
	struct upload *u = arg;
	size_t room = size * nitems, n = 0;

	while (n < room && u->off < u->len) {
		char ch = u->msg[u->off];

		if (ch == '\n' && !u->lf_due &&
		    (!u->off || u->msg[u->off - 1] != '\r')) {
			buf[n++] = '\r';
			u->lf_due = 1;
			continue;
		}
		buf[n++] = ch;
		u->off++;
		u->lf_due = 0;
	}
	return n;
}

static const char *stage_what(const struct conversation *c,
			      const struct mail_settings *s, struct sbuf *sb)
{
	switch (c->stage) {
	case STAGE_CONNECT: return "the connection";
	case STAGE_EHLO: return "EHLO";
	case STAGE_STARTTLS: return "STARTTLS";
	case STAGE_AUTH:
		if (s->smtp_user)
			sbuf_addf(sb, "authentication as '%s'", s->smtp_user);
		else
			sbuf_addstr(sb, "authentication");
		return sb->buf;
	case STAGE_MAIL:
		sbuf_addf(sb, "sender %s", c->command);
		return sb->buf;
	case STAGE_RCPT:
		sbuf_addf(sb, "recipient %s", c->command);
		return sb->buf;
	case STAGE_DATA: return "DATA";
	case STAGE_MESSAGE: return "the message";
	}
	return "?";
}

/* error() for a failed transfer: what was asked, the reply, the reason. */
static int send_error(const struct mail_settings *s, CURL *h, CURLcode rc,
		      const char *errbuf, const struct conversation *c)
{
	struct sbuf what = SBUF_INIT, msg = SBUF_INIT;
	const char *reason = *errbuf ? errbuf : lc.easy_strerror(rc);
	long code = 0;

	lc.easy_getinfo(h, CURLINFO_RESPONSE_CODE, &code);
	sbuf_addf(&msg, "%s: ", s->smtp_url);
	switch (rc) {
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_CONNECT:
		sbuf_addstr(&msg, "cannot connect");
		break;
	case CURLE_OPERATION_TIMEDOUT:
		if (c->stage == STAGE_CONNECT && !c->reply.len)
			sbuf_addstr(&msg, "the server sent no greeting");
		else
			sbuf_addf(&msg, "no reply to %s",
				  stage_what(c, s, &what));
		/* until the greeting, the connect limit applies too */
		sbuf_addf(&msg, " within %ld s",
			  c->stage == STAGE_CONNECT &&
			  s->connect_timeout < s->timeout ?
			  s->connect_timeout : s->timeout);
		break;
	case CURLE_USE_SSL_FAILED:
		sbuf_addstr(&msg, "the server does not offer STARTTLS, and "
			    "smtp-starttls is required");
		break;
	case CURLE_PEER_FAILED_VERIFICATION:
	case CURLE_SSL_CONNECT_ERROR:
	case CURLE_SSL_CACERT_BADFILE:
	case CURLE_SSL_CERTPROBLEM:
		sbuf_addstr(&msg, "TLS failed (smtp-cainfo or "
			    "PERFSIFT_SMTP_CAINFO names the CA bundle)");
		break;
	default:
		if (c->reply.len && code >= 400)
			sbuf_addf(&msg, "the server refused %s: %s",
				  stage_what(c, s, &what), c->reply.buf);
		else if (c->reply.len)
			sbuf_addf(&msg, "%s failed after the reply %s",
				  stage_what(c, s, &what), c->reply.buf);
		else
			sbuf_addf(&msg, "%s failed",
				  stage_what(c, s, &what));
		if (rc == CURLE_LOGIN_DENIED && !s->smtp_password)
			sbuf_addf(&msg, " (no PERFSIFT_SMTP_PASSWORD; the "
				  "password looked for in %s)",
				  env("NETRC") ? "$NETRC" : "~/.netrc");
		break;
	}
	sbuf_addf(&msg, " (libcurl: %s)", reason);
	error("%s", msg.buf);
	sbuf_release(&what);
	sbuf_release(&msg);
	return -1;
}

/* url (checked) with user, percent-encoded, as its user part (owned). */
static char *url_with_user(const char *url, const char *user)
{
	struct sbuf sb = SBUF_INIT;
	size_t skip = scheme_len(url);
	const char *c;

	sbuf_add(&sb, url, skip);
	for (c = user; *c; c++) {
		if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		    (*c >= '0' && *c <= '9') || strchr("-._~", *c))
			sbuf_addch(&sb, *c);
		else
			sbuf_addf(&sb, "%%%02X", (unsigned char)*c);
	}
	sbuf_addch(&sb, '@');
	sbuf_addstr(&sb, url + skip);
	return sbuf_detach(&sb, NULL);
}

/* The settings that can be refused before any connection: 0 or -1. */
static int settings_check(const struct mail_settings *s, size_t nrcpt)
{
	if (!s->smtp_url)
		return error("no SMTP server: give --smtp URL, "
			     "PERFSIFT_SMTP_URL or smtp-url in the config "
			     "file");
	if (smtp_url_check(s->smtp_url))
		return -1;
	if (s->smtp_password && !s->smtp_user)
		return error("PERFSIFT_SMTP_PASSWORD is set but no user: set "
			     "smtp-user or PERFSIFT_SMTP_USER");
	if (!nrcpt)
		return error("no recipient");
	return 0;
}

/* The envelope's recipients as libcurl's list; NULL after error(). */
static struct curl_slist *rcpt_list(const char *const *rcpt, size_t nrcpt)
{
	struct curl_slist *list = NULL, *l;
	size_t i;

	for (i = 0; i < nrcpt; i++) {
		char *a = envelope_addr(rcpt[i], "recipient");

		if (!a)
			goto fail;
		l = lc.slist_append(list, a);
		free(a);
		if (!l) {
			error("out of memory");
			goto fail;
		}
		list = l;
	}
	return list;
fail:
	if (list)
		lc.slist_free_all(list);
	return NULL;
}

/*
 * The server, its TLS and the login: the user and password given, or
 * netrc's entry.  libcurl reads netrc only without CURLOPT_USERNAME; a
 * user in the URL instead picks that login's entry of the host (*url
 * then owns that URL).
 */
static void set_server(CURL *h, const struct mail_settings *s, char **url,
		       char *errbuf)
{
	if (s->smtp_user && !s->smtp_password)
		*url = url_with_user(s->smtp_url, s->smtp_user);
	lc.easy_setopt(h, CURLOPT_URL, *url ? *url : s->smtp_url);
	lc.easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	lc.easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf);
	lc.easy_setopt(h, CURLOPT_CONNECTTIMEOUT, s->connect_timeout);
	lc.easy_setopt(h, CURLOPT_TIMEOUT, s->timeout);
	lc.easy_setopt(h, CURLOPT_USE_SSL,
		       s->starttls == SMTP_TLS_REQUIRED ? (long)CURLUSESSL_ALL :
		       s->starttls == SMTP_TLS_OFF ? (long)CURLUSESSL_NONE :
						     (long)CURLUSESSL_TRY);
	if (s->cainfo)
		lc.easy_setopt(h, CURLOPT_CAINFO, s->cainfo);
	if (s->smtp_password) {
		lc.easy_setopt(h, CURLOPT_USERNAME, s->smtp_user);
		lc.easy_setopt(h, CURLOPT_PASSWORD, s->smtp_password);
	} else {
		/* libcurl looks in ~/.netrc ($HOME's) unless told a file */
		lc.easy_setopt(h, CURLOPT_NETRC, (long)CURL_NETRC_OPTIONAL);
		if (env("NETRC"))
			lc.easy_setopt(h, CURLOPT_NETRC_FILE, env("NETRC"));
	}
}

int smtp_send(const struct mail_settings *s, const char *from,
	      const char *const *rcpt, size_t nrcpt, const char *msg,
	      size_t len)
{
	struct conversation conv = { STAGE_CONNECT, 0, "", SBUF_INIT };
	struct upload up = { msg, len, 0, 0 };
	char errbuf[CURL_ERROR_SIZE] = "";
	struct curl_slist *list = NULL;
	char *mail_from = NULL, *url = NULL;
	CURL *h = NULL;
	CURLcode rc;
	int r = -1;

	if (settings_check(s, nrcpt))
		return -1;
	mail_from = envelope_addr(from, "sender");
	if (!mail_from || curl_ready())
		goto out;
	list = rcpt_list(rcpt, nrcpt);
	if (!list)
		goto out;
	h = lc.easy_init();
	if (!h) {
		error("libcurl: cannot make a handle");
		goto out;
	}
	set_server(h, s, &url, errbuf);
	lc.easy_setopt(h, CURLOPT_MAIL_FROM, mail_from);
	lc.easy_setopt(h, CURLOPT_MAIL_RCPT, list);
	lc.easy_setopt(h, CURLOPT_UPLOAD, 1L);
	lc.easy_setopt(h, CURLOPT_READFUNCTION, on_read);
	lc.easy_setopt(h, CURLOPT_READDATA, &up);
	lc.easy_setopt(h, CURLOPT_DEBUGFUNCTION, on_debug);
	lc.easy_setopt(h, CURLOPT_DEBUGDATA, &conv);
	lc.easy_setopt(h, CURLOPT_VERBOSE, 1L);
	rc = lc.easy_perform(h);
	if (rc != CURLE_OK)
		send_error(s, h, rc, errbuf, &conv);
	else
		r = 0;
out:
	if (h)
		lc.easy_cleanup(h);
	if (list)
		lc.slist_free_all(list);
	free(mail_from);
	free(url);
	sbuf_release(&conv.reply);
	return r;
}
