/*
 * t-smtp.c - unit tests of the mail settings (lib/mail/smtp.c): the
 * config file's keys, comments and errors (path:line), the address list
 * split, the environment over the file, and the SMTP URL check.  The
 * sending itself is tested against a real server by tests/t6000-send.sh.
 */
#include "core/compat.h"
#include "core/sbuf.h"
#include "mail/smtp.h"

#include <unistd.h>
#include "test-lib.h"

static char tmpdir[] = "/tmp/perfsift-t-smtp.XXXXXX";
static char *cfg_path;

static void write_cfg(const char *text)
{
	FILE *f = fopen(cfg_path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f))
		test_fail("cannot write %s", cfg_path);
}

static void clear_env(void)
{
	static const char *const vars[] = {
		"PERFSIFT_FROM", "PERFSIFT_SMTP_URL", "PERFSIFT_SMTP_USER",
		"PERFSIFT_SMTP_PASSWORD", "PERFSIFT_SMTP_CAINFO",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(vars); i++)
		unsetenv(vars[i]);
	setenv("PERFSIFT_CONFIG", cfg_path, 1);
}

/* Load cfg_path holding text; the error message (if any) in err. */
static int load(const char *text, struct mail_settings *s, struct sbuf *err)
{
	int r;

	write_cfg(text);
	sbuf_reset(err);
	err_capture(err);
	r = mail_settings_load(s);
	err_capture(NULL);
	return r;
}

TEST(every_key)
{
	struct mail_settings s;
	struct sbuf err = SBUF_INIT;

	clear_env();
	check_int(0, load("# perfsift mail settings\n"
			  "\n"
			  "from = Perf Robot <robot@example.org>\n"
			  "  to=a@example.org\n"
			  "to = \"Doe, J\" <j@example.org>, b@example.org ,\n"
			  "cc = c@example.org\n"
			  "\t# an indented comment\n"
			  "cc = d@example.org\n"
			  "smtp-url = smtp://mail.example.org:587\n"
			  "smtp-user = robot\n"
			  "smtp-starttls = required\n"
			  "smtp-cainfo = /etc/ssl/ca.pem\n"
			  "smtp-connect-timeout = 5\n"
			  "smtp-timeout = 60  \n"
			  "message-id-domain = perf.example.org\n",
			  &s, &err));
	check_str("", err.buf);
	check_str("Perf Robot <robot@example.org>", s.from);
	check_int(3, s.to.nr);
	check_str("a@example.org", s.to.v[0]);
	check_str("\"Doe, J\" <j@example.org>", s.to.v[1]);
	check_str("b@example.org", s.to.v[2]);
	check_int(2, s.cc.nr);
	check_str("c@example.org", s.cc.v[0]);
	check_str("d@example.org", s.cc.v[1]);
	check_str("smtp://mail.example.org:587", s.smtp_url);
	check_str("robot", s.smtp_user);
	check(s.smtp_password == NULL);
	check_int(SMTP_TLS_REQUIRED, s.starttls);
	check_str("/etc/ssl/ca.pem", s.cainfo);
	check_int(5, s.connect_timeout);
	check_int(60, s.timeout);
	check_str("perf.example.org", s.msgid_domain);
	check_str(cfg_path, s.config_path);
	mail_settings_release(&s);
	sbuf_release(&err);
}

TEST(defaults_and_last_wins)
{
	struct mail_settings s;
	struct sbuf err = SBUF_INIT;

	clear_env();
	check_int(0, load("smtp-starttls = off\nsmtp-starttls = optional\n"
			  "from = a@x\nfrom = b@x\n", &s, &err));
	check_int(SMTP_TLS_OPTIONAL, s.starttls);
	check_str("b@x", s.from);
	check_int(30, s.connect_timeout);
	check_int(300, s.timeout);
	check(s.smtp_url == NULL);
	mail_settings_release(&s);

	check_int(0, load("", &s, &err));
	check_int(SMTP_TLS_DEFAULT, s.starttls);
	check_int(0, s.to.nr);
	mail_settings_release(&s);
	sbuf_release(&err);
}

TEST(environment_beats_file)
{
	struct mail_settings s;
	struct sbuf err = SBUF_INIT;

	clear_env();
	setenv("PERFSIFT_FROM", "env@x", 1);
	setenv("PERFSIFT_SMTP_URL", "smtps://env.example.org", 1);
	setenv("PERFSIFT_SMTP_USER", "envuser", 1);
	setenv("PERFSIFT_SMTP_PASSWORD", "envpass", 1);
	setenv("PERFSIFT_SMTP_CAINFO", "/env/ca.pem", 1);
	check_int(0, load("from = file@x\nsmtp-url = smtp://file.example.org\n"
			  "smtp-user = fileuser\nsmtp-cainfo = /file/ca.pem\n",
			  &s, &err));
	check_str("env@x", s.from);
	check_str("smtps://env.example.org", s.smtp_url);
	check_str("envuser", s.smtp_user);
	check_str("envpass", s.smtp_password);
	check_str("/env/ca.pem", s.cainfo);
	mail_settings_release(&s);

	/* an empty variable is unset */
	setenv("PERFSIFT_FROM", "", 1);
	check_int(0, load("from = file@x\n", &s, &err));
	check_str("file@x", s.from);
	mail_settings_release(&s);

	setenv("PERFSIFT_SMTP_URL", "http://x", 1);
	check_int(-1, load("", &s, &err));
	check_str("PERFSIFT_SMTP_URL: bad SMTP URL: the scheme must be "
		  "smtp:// or smtps://", err.buf);
	mail_settings_release(&s);
	clear_env();
	sbuf_release(&err);
}

/* One bad config file: load fails with want as the message. */
static void check_bad(int line, const char *text, const char *want)
{
	struct mail_settings s;
	struct sbuf err = SBUF_INIT, full = SBUF_INIT;

	clear_env();
	if (!check_int_loc(__FILE__, line, "load", -1, load(text, &s, &err)))
		test_msg("config: %s", text);
	sbuf_addf(&full, "%s:%s", cfg_path, want);
	check_str_loc(__FILE__, line, "message", full.buf, err.buf);
	mail_settings_release(&s);
	sbuf_release(&err);
	sbuf_release(&full);
}

TEST(bad_lines)
{
	check_bad(__LINE__, "from = a@x\nsmtp-port = 25\n",
		  "2: unknown key 'smtp-port'");
	check_bad(__LINE__, "# c\n\nto a@x\n",
		  "3: expected 'key = value', got 'to a@x'");
	check_bad(__LINE__, "= x\n", "1: expected 'key = value', got '= x'");
	check_bad(__LINE__, "from =\n", "1: 'from' has an empty value");
	check_bad(__LINE__, "smtp-password = hunter2\n",
		  "1: the password is not read from the config file: set "
		  "PERFSIFT_SMTP_PASSWORD or use ~/.netrc");
	check_bad(__LINE__, "smtp-starttls = yes\n",
		  "1: smtp-starttls must be required, optional or off, not "
		  "'yes'");
	check_bad(__LINE__, "smtp-timeout = 0\n",
		  "1: smtp-timeout must be whole seconds from 1 to 86400, not "
		  "'0'");
	check_bad(__LINE__, "smtp-connect-timeout = 2.5\n",
		  "1: smtp-connect-timeout must be whole seconds from 1 to "
		  "86400, not '2.5'");
	check_bad(__LINE__, "smtp-url = mail.example.org\n",
		  "1: bad smtp-url: the scheme must be smtp:// or smtps://");
	check_bad(__LINE__, "smtp-url = smtp://:25\n",
		  "1: bad smtp-url: no host");
	check_bad(__LINE__, "smtp-url = smtp://mail.example.org:0\n",
		  "1: bad smtp-url: the port must be from 1 to 65535");
	check_bad(__LINE__, "smtp-url = smtp://mail.example.org:smtp\n",
		  "1: bad smtp-url: the port must be a number");
	check_bad(__LINE__, "smtp-url = smtp://[::1\n",
		  "1: bad smtp-url: no closing ']' after the IPv6 address");
	check_bad(__LINE__, "smtp-url = imap://mail.example.org\n",
		  "1: bad smtp-url: the scheme must be smtp:// or smtps://");
	check_bad(__LINE__, "smtp-url = smtp://u:hunter2@mail.example.org\n",
		  "1: bad smtp-url: a user or password in the URL is refused "
		  "(smtp-user or PERFSIFT_SMTP_USER; the password in "
		  "PERFSIFT_SMTP_PASSWORD or ~/.netrc)");
}

TEST(config_file_missing)
{
	struct mail_settings s;
	struct sbuf err = SBUF_INIT, want = SBUF_INIT;
	char *missing = xstrfmt("%s/none", tmpdir);

	/* named by $PERFSIFT_CONFIG: an error */
	clear_env();
	setenv("PERFSIFT_CONFIG", missing, 1);
	err_capture(&err);
	check_int(-2, mail_settings_load(&s));
	err_capture(NULL);
	sbuf_addf(&want, "%s: cannot open: No such file or directory",
		  missing);
	check_str(want.buf, err.buf);
	mail_settings_release(&s);

	/* the default place: no error, nothing set */
	unsetenv("PERFSIFT_CONFIG");
	setenv("XDG_CONFIG_HOME", tmpdir, 1);
	check_int(0, mail_settings_load(&s));
	check(s.config_path == NULL);
	check(s.from == NULL);
	mail_settings_release(&s);
	unsetenv("XDG_CONFIG_HOME");
	free(missing);
	sbuf_release(&err);
	sbuf_release(&want);
}

TEST(addr_split)
{
	struct addr_list l = { 0 };

	addr_list_add_split(&l, " a@x,, \"Last, First\" <f@x>,<odd,one@x> ,"
			    "\"q\\\"uote, d\" <q@x>");
	check_int(4, l.nr);
	if (l.nr == 4) {
		check_str("a@x", l.v[0]);
		check_str("\"Last, First\" <f@x>", l.v[1]);
		check_str("<odd,one@x>", l.v[2]);
		check_str("\"q\\\"uote, d\" <q@x>", l.v[3]);
	}
	addr_list_release(&l);
	addr_list_add_split(&l, " , ");
	check_int(0, l.nr);
	addr_list_release(&l);
}

TEST(url_check)
{
	struct sbuf err = SBUF_INIT;

	err_capture(&err);
	check_int(0, smtp_url_check("smtp://127.0.0.1:2525"));
	check_int(0, smtp_url_check("smtps://mail.example.org"));
	check_int(0, smtp_url_check("SMTP://[::1]:25/ehlo.example.org"));
	check_int(-1, smtp_url_check("smtp://robot:hunter2@example.org"));
	err_capture(NULL);
	check(strstr(err.buf, "hunter2") == NULL);
	check_str("bad SMTP URL: a user or password in the URL is refused "
		  "(smtp-user or PERFSIFT_SMTP_USER; the password in "
		  "PERFSIFT_SMTP_PASSWORD or ~/.netrc)", err.buf);
	sbuf_release(&err);
}

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	if (!mkdtemp(tmpdir)) {
		test_fail("mkdtemp: %s", strerror(errno));
		return test_done();
	}
	cfg_path = xstrfmt("%s/config", tmpdir);
	test_every_key();
	test_defaults_and_last_wins();
	test_environment_beats_file();
	test_bad_lines();
	test_config_file_missing();
	test_addr_split();
	test_url_check();
	unlink(cfg_path);
	rmdir(tmpdir);
	free(cfg_path);
	return test_done();
}
