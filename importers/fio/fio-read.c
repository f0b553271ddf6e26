/*
 * The fio importer's reading: the document streamed in chunks, its
 * top-level members and array elements found by a scanner and each
 * parsed alone (fio-json.c, else jansson behind the bytes that give it
 * the whole document's state).
 */
#include "core/compat.h"
#include "fio-int.h"

/*
 * The longest member of the top-level object or element of one of its
 * arrays (a job), and the longest token: jansson's tree of a value is
 * several times its text in memory.
 */
#define FIO_VALUE_MAX (4u << 20)

/* ---- reading the document: bytes, slices, and jansson ---- */

/*
 * struct input offers lines (capped at 16 MiB, NUL refused: one line
 * may be a whole minified document) or the whole file (capped at
 * 256 MiB); this reads bytes as input.c's fill() does, with its hashing,
 * counts and messages, so that the import driver's input_finish() finds
 * the content hashed and the stream at its end.
 */
#define READ_CHUNK (64u << 10)
/* Room before a capture for the bytes that set jansson's state. */
#define SLOT 8
/* Nesting that jansson refuses anyway (JSON_PARSER_MAX_DEPTH 2048). */
#define NEST_MAX 2048

/*
 * What the whole document's parse has read before the captured bytes,
 * in a few bytes: inside the object, at a member, after a member's
 * value, after its comma; inside an array member, at an element, after
 * one, after its comma.  Each slice is then read with the same depth,
 * the same expectations and so the same messages.  None holds a newline.
 */
static const char p_obj[] = "{";
static const char p_obj_value[] = "{\"\":[]";
static const char p_obj_comma[] = "{\"\":[],";
static const char p_arr[] = "{\"\":[";
static const char p_arr_value[] = "{\"\":[[]";
static const char p_arr_comma[] = "{\"\":[[],";

static const char jobname_pat[] = "\"jobname\"";
#define JOBNAME_PAT_LEN (sizeof(jobname_pat) - 1)

void reader_init(struct reader *r, struct input *in)
{
	memset(r, 0, sizeof(*r));
	r->in = in;
	r->chunk = xmalloc(READ_CHUNK);
	/* input_open() has read the first bytes already */
	r->p = in->buf + in->pos;
	r->end = in->buf + in->end;
	in->pos = in->end;
	r->line = 1;
	sbuf_init(&r->cap, 4096);
	sbuf_add(&r->cap, "        ", SLOT);
}

void reader_release(struct reader *r)
{
	free(r->chunk);
	free(r->jobname_line);
	sbuf_release(&r->cap);
}

/* Read the next bytes: 1, or 0 at the end or after a read error. */
static int rd_fill(struct reader *r)
{
	struct input *in = r->in;
	int n, zerr;

	if (r->failed || in->eof)
		return 0;
	n = gzread(in->gz, r->chunk, READ_CHUNK);
	if (n < 0) {
		const char *msg = gzerror(in->gz, &zerr);

		if (zerr == Z_ERRNO)
			msg = strerror(errno);
		r->failed = 1;
		error("%s:%ld: read error: %s", in->path, in->line + 1, msg);
		return 0;
	}
	if (n == 0) {
		/* gzread returns 0 for a cut-off gzip stream too */
		gzerror(in->gz, &zerr);
		if (zerr == Z_BUF_ERROR) {
			r->failed = 1;
			error("%s:%ld: truncated gzip data", in->path,
			      in->line + 1);
			return 0;
		}
		in->eof = 1;
		return 0;
	}
	sha256_update(&in->hash, r->chunk, (size_t)n);
	in->nbytes += (uint64_t)n;
	r->p = r->chunk;
	r->end = r->chunk + n;
	return 1;
}

/* The next byte, not consumed, or -1 at the end. */
static inline int rd_peek(struct reader *r)
{
	if (r->p == r->end && !rd_fill(r))
		return -1;
	return *r->p;
}

/*
 * The "jobname" keys, as the whole-document code found them: the text
 * "jobname" in quotes, then blanks and ':', anywhere in the object.
 */
static void jobname_step(struct reader *r, int c)
{
	if (r->pat == (int)JOBNAME_PAT_LEN) {
		if (c == ' ' || c == '\t')
			return;
		r->pat = 0;
		if (c == ':') {
			ALLOC_GROW(r->jobname_line, r->nr_jobname_lines + 1,
				   r->alloc_jobname_lines);
			r->jobname_line[r->nr_jobname_lines++] = r->line;
			return;
		}
	}
	if (c == jobname_pat[r->pat])
		r->pat++;
	else
		r->pat = c == '"';
}

/* Consume the next byte: it is returned, or -1 at the end. */
static inline int rd_get(struct reader *r)
{
	int c = rd_peek(r);

	if (c < 0)
		return -1;
	r->p++;
	if (c == '\n')
		r->line++;
	if (r->in_object) {
		jobname_step(r, c);
		sbuf_addch(&r->cap, c);
	}
	return c;
}

/* Start capturing at the next byte. */
static void cap_start(struct reader *r)
{
	sbuf_setlen(&r->cap, SLOT);
	r->cap_line = r->line;
}

static size_t cap_used(const struct reader *r)
{
	return r->cap.len - SLOT;
}

/* jansson's whitespace; returns the byte after it (not consumed). */
static int skip_ws(struct reader *r)
{
	int c;

	while ((c = rd_peek(r)) == ' ' || c == '\t' || c == '\n' || c == '\r')
		rd_get(r);
	return c;
}

/*
 * Bytes of jansson's number and keyword tokens, and of UTF-8 sequences
 * (their first byte makes jansson read and check the whole sequence, so
 * it must not be cut off).
 */
static int is_scalar_byte(int c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z') || c == '-' || c == '+' || c == '.' ||
	       c >= 0x80;
}

enum scan {
	SCAN_DONE,	/* ended where jansson's value ends, or fails */
	SCAN_EOF,	/* the file ended inside */
	SCAN_BIG,	/* longer than FIO_VALUE_MAX */
};

/* The rest of a string whose '"' is consumed. */
static enum scan scan_string_rest(struct reader *r)
{
	int c, esc = 0;

	while ((c = rd_get(r)) >= 0) {
		if (esc)
			esc = 0;
		else if (c == '\\')
			esc = 1;
		else if (c == '"')
			return SCAN_DONE;
		if (cap_used(r) > FIO_VALUE_MAX)
			return SCAN_BIG;
	}
	return SCAN_EOF;
}

/*
 * One token as jansson's lexer sees its end: a string, a run of number
 * or keyword bytes, or one byte (punctuation, or what jansson refuses).
 */
static enum scan scan_token(struct reader *r)
{
	int c = rd_get(r);

	if (c < 0)
		return SCAN_EOF;
	if (c == '"')
		return scan_string_rest(r);
	if (is_scalar_byte(c))
		while (is_scalar_byte(rd_peek(r))) {
			rd_get(r);
			if (cap_used(r) > FIO_VALUE_MAX)
				return SCAN_BIG;
		}
	return SCAN_DONE;
}

/* The bytes that change the scan's state; it skips the others. */
static const unsigned char scan_stop[256] = {
	['"'] = 1, ['\\'] = 1, ['{'] = 1, ['}'] = 1, ['['] = 1, [']'] = 1,
	['\n'] = 1,
};

/* The state of the scan of one value, over its chunks. */
struct nest {
	size_t depth;
	int in_str, esc;
	char closer[NEST_MAX];	/* what closes each open bracket */
};

/*
 * The bytes from r->p to end through the scan: the lines counted, the
 * "jobname" keys looked for, the nesting followed.  Returns where it
 * stopped: end, or just after the byte that ends the value (*done 1).
 */
static inline const unsigned char *scan_bytes(struct reader *r,
					      struct nest *n,
					      const unsigned char *end,
					      int *done)
{
	const unsigned char *p = r->p;
	const size_t rest = JOBNAME_PAT_LEN - 1;
	size_t depth = n->depth;
	int in_str = n->in_str, esc = n->esc, stop = 0, c;

	while (p < end && !stop) {
		/* nothing to do for the others (jobname_step() at 0) */
		if (!r->pat && !esc) {
			while (p < end && !scan_stop[*p])
				p++;
			if (p == end)
				break;
		}
		c = *p++;
		if (c == '\n')
			r->line++;
		/*
		 * A quote not followed by the rest of the pattern starts
		 * no match: the pattern fails before the next quote,
		 * which starts its own.
		 */
		if (r->in_object &&
		    (r->pat ||
		     (c == '"' && (end - p < (ptrdiff_t)rest ||
				   !memcmp(p, jobname_pat + 1, rest)))))
			jobname_step(r, c);
		if (in_str) {
			if (esc)
				esc = 0;
			else if (c == '\\')
				esc = 1;
			else if (c == '"')
				in_str = 0;
		} else if (c == '"') {
			in_str = 1;
		} else if (c == '{' || c == '[') {
			if (depth == NEST_MAX)
				stop = 1;
			else
				n->closer[depth++] = c == '{' ? '}' : ']';
		} else if (c == '}' || c == ']') {
			if (c != n->closer[--depth] || !depth)
				stop = 1;
		}
	}
	n->depth = depth;
	n->in_str = in_str;
	n->esc = esc;
	*done = stop;
	return p;
}

/*
 * One value: an object or array up to its closing bracket, by nesting
 * outside strings (a bracket that does not match ends it too: jansson
 * fails there), or one token.  The bytes of a chunk are gone through
 * in one loop and captured at once, not by rd_get() per byte (a call,
 * a capture and a pattern step each).  What a byte does is what
 * rd_get() and the byte's turn would do, in the same order, the size
 * checked after each byte.
 */
static enum scan scan_value(struct reader *r)
{
	struct nest n;
	int c = rd_peek(r);

	if (c != '{' && c != '[')
		return scan_token(r);
	n.depth = 0;
	n.in_str = n.esc = 0;
	while (rd_peek(r) >= 0) {
		const unsigned char *p, *end = r->end;
		size_t used = cap_used(r);
		size_t room = used <= FIO_VALUE_MAX ? FIO_VALUE_MAX + 1 - used
						    : 1;
		int done;

		/* the byte that passes the limit is the last one looked at */
		if ((size_t)(end - r->p) > room)
			end = r->p + room;
		p = scan_bytes(r, &n, end, &done);
		if (r->in_object)
			sbuf_add(&r->cap, r->p, (size_t)(p - r->p));
		r->p = p;
		if (done)
			return SCAN_DONE;
		if (cap_used(r) > FIO_VALUE_MAX)
			return SCAN_BIG;
	}
	return SCAN_EOF;
}

/* Record the syntax error; the line counts from the capture's first. */
static void parse_failed(struct fio_state *st, const struct reader *r,
			 const json_error_t *jerr)
{
	sbuf_reset(&st->parse_err);
	sbuf_addf(&st->parse_err, "%s:%ld: truncated or invalid JSON: %s",
		  st->path,
		  r->cap_line - 1 + (jerr->line > 0 ? jerr->line : 1),
		  jerr->text);
}

/* Put the bytes of state (p_obj...) in front of the capture. */
static void cap_state(struct reader *r, const char *state)
{
	size_t n = strlen(state);

	memcpy(r->cap.buf, state, n);
	memset(r->cap.buf + n, ' ', SLOT - n);
}

/*
 * Parse the capture behind state (what the whole parse has read before
 * it) and before suffix (what closes the state; "" when the file ended
 * inside).  Returns the value, or NULL after recording the error.
 */
static json_t *parse_capture(struct fio_state *st, struct reader *r,
			     const char *state, const char *suffix)
{
	size_t len = r->cap.len;
	json_error_t jerr;
	json_t *v;

	cap_state(r, state);
	sbuf_addstr(&r->cap, suffix);
	/*
	 * A key twice in an object is an error: no value is guessed.  But
	 * fio 2.x pads percentile maps with "0.00": 0 slots, which fj
	 * takes; a document it leaves to jansson (non-ASCII, \u escapes)
	 * with that padding is read as before, the last repeat winning.
	 */
	v = json_loadb(r->cap.buf, r->cap.len,
		       JSON_DISABLE_EOF_CHECK | JSON_REJECT_DUPLICATES, &jerr);
	if (!v && strstr(jerr.text, "duplicate object key near '\"0.00\"'"))
		v = json_loadb(r->cap.buf, r->cap.len, JSON_DISABLE_EOF_CHECK,
			       &jerr);
	/* the value ends where the scan said, the suffix closes it */
	if (v && (size_t)jerr.position != r->cap.len)
		BUG("fio: a JSON slice ends at %d of %zu", jerr.position,
		    r->cap.len);
	sbuf_setlen(&r->cap, len);
	if (!v)
		parse_failed(st, r, &jerr);
	return v;
}

/*
 * The capture passed FIO_VALUE_MAX.  If jansson finds an error well
 * before the cut (it reads at most a UTF-8 sequence ahead), that is the
 * error of the whole document; otherwise the value is refused for its
 * size.
 */
__attribute__((format(printf, 5, 6)))
static int too_big(struct fio_state *st, struct reader *r, const char *state,
		   long line, const char *fmt, ...)
{
	json_error_t jerr;
	va_list ap;
	json_t *v;

	cap_state(r, state);
	v = json_loadb(r->cap.buf, r->cap.len, JSON_DISABLE_EOF_CHECK, &jerr);
	if (v)
		BUG("fio: a cut JSON value accepted");
	if (jerr.position >= 0 && (size_t)jerr.position + 8 < r->cap.len) {
		parse_failed(st, r, &jerr);
		return -1;
	}
	sbuf_reset(&st->parse_err);
	sbuf_addf(&st->parse_err, "%s:%ld: ", st->path, line);
	va_start(ap, fmt);
	sbuf_vaddf(&st->parse_err, fmt, ap);
	va_end(ap);
	sbuf_addf(&st->parse_err, " larger than %u MiB, the limit of one "
		  "member, job or token (fio writes a job in a few KiB)",
		  FIO_VALUE_MAX >> 20);
	return -1;
}

/*
 * The next token is wrong where it stands (state says where): jansson
 * says how, from the capture and that token.
 */
static int syntax_error(struct fio_state *st, struct reader *r,
			const char *state)
{
	long line = r->line;

	if (scan_token(r) == SCAN_BIG)
		return too_big(st, r, state, line, "a JSON token");
	if (parse_capture(st, r, state, ""))
		BUG("fio: JSON accepted where it cannot be");
	return -1;
}

/*
 * After a value in the object or an array, what follows: its closer
 * (consumed: 1), or a comma (consumed, and the blanks after it: 0, *c
 * the byte after them), else the syntax error (-1; state is where the
 * whole parse would be, after a value).
 */
static int after_value(struct fio_state *st, struct reader *r, int closer,
		       const char *state, int *c)
{
	cap_start(r);
	*c = skip_ws(r);
	if (*c == closer) {
		rd_get(r);
		return 1;
	}
	if (*c != ',')
		return syntax_error(st, r, state);
	rd_get(r);
	cap_start(r);
	*c = skip_ws(r);
	return 0;
}

/* An option fio printed twice (struct fj): fio ran with the last. */
static void warn_repeats(struct fio_state *st, const struct fj *d, long line)
{
	if (d->repeats)
		db_warn(st->ctx, line, "the option '%s' is given %s; fio ran "
			"with the last value", d->text.buf + d->repeat_key,
			d->repeats == 1 ? "twice" : "twice, and others too");
}

/*
 * An array member: its elements one by one; those of "jobs" are jobs.
 * Another array replaces what its key had as any member does: only its
 * type matters then ("fio version": [] is no version).
 */
static int read_array(struct fio_state *st, struct reader *r,
		      const char *key)
{
	int jobs = !strcmp(key, "jobs"), c, rc;
	size_t i;

	if (jobs) {
		fio_reset_jobs(st, JOBS_ARRAY);
	} else {
		/* only its type matters */
		if (fj_parse(&st->member, "[]", 2))
			BUG("fio: [] refused");
		fio_member_take(st, key);
	}
	cap_start(r);
	c = skip_ws(r);
	if (c == ']') {
		rd_get(r);
		return 0;
	}
	for (i = 0;; i++) {
		long line = r->line;
		enum scan s = scan_value(r);
		json_t *v;

		if (s == SCAN_BIG)
			return too_big(st, r, p_arr, line,
				       "\"%s\"[%zu] is", key, i);
		/* an element in the subset that fio writes: no jansson */
		if (s == SCAN_DONE &&
		    !fj_parse(&st->job, r->cap.buf + SLOT, cap_used(r))) {
			warn_repeats(st, &st->job, line);
			if (jobs)
				fio_job_add(st, fj_root(&st->job), i);
		} else {
			v = parse_capture(st, r, p_arr,
					  s == SCAN_DONE ? "]}" : "");
			if (!v)
				return -1;
			if (jobs) {
				fj_from_json(&st->job, json_array_get(
					json_object_get(v, ""), 0));
				fio_job_add(st, fj_root(&st->job), i);
			}
			json_decref(v);
		}
		rc = after_value(st, r, ']', p_arr_value, &c);
		if (rc)
			return rc < 0 ? -1 : 0;
		if (c == ']')
			return syntax_error(st, r, p_arr_comma);
	}
}

/*
 * A member's key, the capture from key_off: into st->key.  0, or -1 if
 * jansson does not take it.
 */
static int member_key(struct fio_state *st, struct reader *r, size_t key_off)
{
	json_error_t jerr;
	json_t *key;

	sbuf_reset(&st->key);
	if (!fj_parse(&st->member, r->cap.buf + key_off,
		      r->cap.len - key_off)) {
		sbuf_addstr(&st->key, fj_str(&st->member,
					     fj_root(&st->member)));
		return 0;
	}
	key = json_loadb(r->cap.buf + key_off, r->cap.len - key_off,
			 JSON_DECODE_ANY, &jerr);
	if (!key)
		return -1;
	sbuf_addstr(&st->key, json_string_value(key));
	json_decref(key);
	return 0;
}

/* One member, its key's '"' next; the capture holds what precedes it. */
static int read_member(struct fio_state *st, struct reader *r)
{
	size_t key_off = r->cap.len, value_off;
	long line = r->line;
	json_t *v;
	enum scan s;
	int fj_ok;

	rd_get(r);
	s = scan_string_rest(r);
	if (s == SCAN_BIG)
		return too_big(st, r, p_obj, line, "a key");
	if (s != SCAN_DONE || member_key(st, r, key_off) || skip_ws(r) != ':')
		return syntax_error(st, r, p_obj);
	rd_get(r);
	if (skip_ws(r) == '[') {
		rd_get(r);
		return read_array(st, r, st->key.buf);
	}
	line = r->line;
	value_off = r->cap.len;
	s = scan_value(r);
	if (s == SCAN_BIG)
		return too_big(st, r, p_obj, line, "\"%s\" is", st->key.buf);
	st->member.options_root = !strcmp(st->key.buf, "global options");
	fj_ok = s == SCAN_DONE && !fj_parse(&st->member, r->cap.buf + value_off,
					   r->cap.len - value_off);
	st->member.options_root = 0;
	if (fj_ok) {
		warn_repeats(st, &st->member, line);
		fio_member_take(st, st->key.buf);
		return 0;
	}
	v = parse_capture(st, r, p_obj, s == SCAN_DONE ? "}" : "");
	if (!v)
		return -1;
	fio_member_take_json(st, st->key.buf,
			     json_object_iter_value(json_object_iter(v)));
	json_decref(v);
	return 0;
}

/*
 * The top-level object, its '{' consumed.  Returns 0 after its '}', or
 * -1 with the syntax error recorded (or the file cut short).
 */
static int read_object(struct fio_state *st, struct reader *r)
{
	const char *state = p_obj;
	int c, rc;

	cap_start(r);
	c = skip_ws(r);
	if (c == '}') {
		rd_get(r);
		return 0;
	}
	for (;;) {
		if (c != '"')
			return syntax_error(st, r, state);
		if (read_member(st, r))
			return -1;
		rc = after_value(st, r, '}', p_obj_value, &c);
		if (rc)
			return rc < 0 ? -1 : 0;
		state = p_obj_comma;
	}
}

int fio_read_document(struct fio_state *st, struct reader *r)
{
	int rc;

	st->line0 = r->line;
	r->in_object = 1;
	rd_get(r);
	rc = read_object(st, r);
	r->in_object = 0;
	return rc;
}

/*
 * Where the JSON starts: the first line that starts with '{'.  Returns
 * 1 there (not consumed), 0 at the end; *any tells if there was a byte.
 */
int fio_find_json_start(struct reader *r, int *any)
{
	size_t n = 0;
	int c, bol = 1;

	*any = 0;
	while ((c = rd_peek(r)) >= 0) {
		*any = 1;
		if (bol && c == '{')
			return 1;
		/*
		 * What comes before is fio's diagnostics or a normal report:
		 * text, and not endless.  A forced --format fio on binary
		 * data or a device stops here, not at its end.
		 */
		if (!c)
			return error("%s:%ld: a NUL byte before the JSON (binary "
				     "data?): not fio JSON output",
				     r->in->path, r->line);
		if (++n > FIO_PREAMBLE_MAX)
			return error("%s: no line starts with '{' in the first "
				     "%d MiB: not fio JSON output", r->in->path,
				     FIO_PREAMBLE_MAX >> 20);
		rd_get(r);
		bol = c == '\n';
	}
	return 0;
}

/* After the object: the line of the next line starting with '{', or 0. */
long fio_next_object_line(struct reader *r)
{
	int c, bol = 0;

	while ((c = rd_peek(r)) >= 0) {
		if (bol && c == '{')
			return r->line;
		rd_get(r);
		bol = c == '\n';
	}
	return 0;
}

void fio_drain(struct reader *r)
{
	while (rd_peek(r) >= 0)
		r->p = r->end;
}
