/*
 * A job's JSON as a tree without jansson (fio-json.h): one pass over
 * the text, nodes in one array, keys and strings in one buffer, both
 * kept from job to job, so that no value costs a malloc.
 */
#include "core/compat.h"
#include "fio-json.h"

/*
 * The subset, chosen so that every text it takes jansson takes too and
 * reads as the same values (everything else goes to jansson):
 * - strings of printable ASCII, with the escapes \" \\ \/ \b \f \n \r \t
 *   (no \u, no bytes >= 0x80: jansson checks their UTF-8, we do not);
 * - numbers in JSON's grammar; one without '.' or exponent is an integer
 *   in jansson (json_int_t, then a double), so it is read as an int64
 *   that must fit, and converted; others as strtod() reads them, which
 *   jansson calls, and which fails here on overflow as it does there;
 * - objects without a key given twice, but for the same scalar twice
 *   (fio 2.x pads percentile maps with "0.00": 0) and fio's options
 *   (struct fj: the last value at the first key's place, as jansson
 *   keeps it);
 * - nesting up to FJ_DEPTH (jansson's limit is 2048).
 */
#define FJ_DEPTH 64

struct fj_parser {
	struct fj *d;
	const char *p, *end;
	int depth;
	int options_next;	/* the next object is fio's options */
};

static int is_options_key(const struct fj *d, uint32_t key, uint32_t len)
{
	const char *k = d->text.buf + key;

	return (len == 11 && !memcmp(k, "job options", 11)) ||
	       (len == 14 && !memcmp(k, "global options", 14));
}

void fj_release(struct fj *d)
{
	free(d->node);
	sbuf_release(&d->text);
	d->node = NULL;
	d->nr = d->alloc = 0;
}

static uint32_t new_node(struct fj *d, enum fj_type type)
{
	struct fj_node *n;

	ALLOC_GROW(d->node, d->nr + 1, d->alloc);
	n = &d->node[d->nr];
	memset(n, 0, sizeof(*n));
	n->type = type;
	return (uint32_t)d->nr++;
}

/* Append node c to the members or elements of node self (last: *prev). */
static void link_child(struct fj *d, uint32_t self, uint32_t *prev,
		       uint32_t c)
{
	if (*prev)
		d->node[*prev].next = c;
	else
		d->node[self].child = c;
	*prev = c;
}

static void skip_blanks(struct fj_parser *ps)
{
	while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\n' ||
				   *ps->p == '\t' || *ps->p == '\r'))
		ps->p++;
}

/*
 * The string whose '"' is at p, unescaped into d->text (NUL-terminated):
 * its offset in *off, its length in *len and a hash of it in *hash.
 */
static int parse_string(struct fj_parser *ps, uint32_t *off, uint32_t *len,
			uint32_t *hash)
{
	struct sbuf *t = &ps->d->text;
	const char *p = ps->p + 1;
	uint32_t h = 2166136261u;
	size_t start = t->len;

	for (;;) {
		const char *run = p;
		unsigned char c;

		/* the run of plain bytes, copied at once */
		while (p < ps->end && (c = (unsigned char)*p) >= 0x20 &&
		       c < 0x80 && c != '"' && c != '\\') {
			h = (h ^ c) * 16777619u;
			p++;
		}
		sbuf_add(t, run, (size_t)(p - run));
		if (p >= ps->end)
			return -1;
		c = (unsigned char)*p;
		if (c == '"')
			break;
		if (c != '\\' || p + 1 >= ps->end)
			return -1;	/* a control byte, UTF-8 or the end */
		switch (p[1]) {
		case '"': c = '"'; break;
		case '\\': c = '\\'; break;
		case '/': c = '/'; break;
		case 'b': c = '\b'; break;
		case 'f': c = '\f'; break;
		case 'n': c = '\n'; break;
		case 'r': c = '\r'; break;
		case 't': c = '\t'; break;
		default: return -1;	/* \u, or invalid */
		}
		h = (h ^ c) * 16777619u;
		sbuf_addch(t, c);
		p += 2;
	}
	ps->p = p + 1;
	*off = (uint32_t)start;
	*len = (uint32_t)(t->len - start);
	*hash = h;
	sbuf_addch(t, '\0');
	return 0;
}

/* Powers of ten that are exact doubles. */
static const double pow10_exact[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

static int is_digit(int c)
{
	return c >= '0' && c <= '9';
}

/* A number token as it is read: its significant digits, its exponent. */
struct num_token {
	uint64_t m;		/* the first 19 significant digits */
	int m_exact;		/* there were no more */
	int neg;		/* a '-' */
	int real;		/* a fraction or an exponent */
	int frac;		/* digits of m after the '.' */
	int exp;		/* the exponent written, up to 10000 and more */
};

/* The sign, integer and fraction digits at p: after them, or NULL. */
static inline const char *lex_mantissa(const char *p, const char *end,
				       struct num_token *t)
{
	int sig = 0;

	if (p < end && *p == '-') {
		t->neg = 1;
		p++;
	}
	if (p >= end || !is_digit(*p))
		return NULL;
	/* m: the first 19 significant digits; more go to strtod() */
	if (*p == '0') {
		p++;	/* "01" is two tokens to jansson: refused below */
	} else {
		for (; p < end && is_digit(*p); p++) {
			if (sig < 19) {
				t->m = t->m * 10 + (uint64_t)(*p - '0');
				sig++;
			} else {
				t->m_exact = 0;
			}
		}
	}
	if (p < end && *p == '.') {
		t->real = 1;
		p++;
		if (p >= end || !is_digit(*p))
			return NULL;
		for (; p < end && is_digit(*p); p++) {
			if (sig < 19) {
				t->m = t->m * 10 + (uint64_t)(*p - '0');
				sig += t->m != 0;
				t->frac++;
			} else {
				t->m_exact = 0;
			}
		}
	}
	return p;
}

/*
 * The exponent at p, if any, and the end of the token as jansson's
 * lexer would find it: after them, or NULL.
 */
static inline const char *lex_exponent(const char *p, const char *end,
				       struct num_token *t)
{
	int exp = 0, exp_neg = 0;

	if (p < end && (*p == 'e' || *p == 'E')) {
		t->real = 1;
		p++;
		if (p < end && (*p == '+' || *p == '-'))
			exp_neg = *p++ == '-';
		if (p >= end || !is_digit(*p))
			return NULL;
		for (; p < end && is_digit(*p); p++)
			if (exp < 10000)
				exp = exp * 10 + (*p - '0');
	}
	t->exp = exp_neg ? -exp : exp;
	/* what jansson's lexer would read as part of the token */
	if (p < end && (is_digit(*p) || *p == '.' || *p == 'e' || *p == 'E' ||
			*p == '+' || *p == '-'))
		return NULL;
	return p;
}

/*
 * The value of the real t, its text [start, p): digits m and a power of
 * ten e with m <= 2^53 and |e| <= 22 give it in one correctly rounded
 * operation on exact doubles, which is what strtod() returns; other
 * reals go to strtod() itself.  0, or -1 where jansson refuses it.
 */
static inline int real_value(const struct num_token *t, const char *start,
			     const char *p, double *out)
{
	int exp = t->exp - t->frac;
	char buf[64];
	size_t n = (size_t)(p - start);
	double v;

	if (t->m_exact && t->m <= (1ull << 53) && exp >= -22 && exp <= 22) {
		v = (double)t->m;
		v = exp < 0 ? v / pow10_exact[-exp] : v * pow10_exact[exp];
		*out = t->neg ? -v : v;
		return 0;
	}
	if (n >= sizeof(buf))
		return -1;
	memcpy(buf, start, n);
	buf[n] = '\0';
	errno = 0;
	v = strtod(buf, NULL);
	if (errno == ERANGE && (v == HUGE_VAL || v == -HUGE_VAL))
		return -1;	/* jansson: "real number overflow" */
	*out = v;
	return 0;
}

/* A number token at p, as jansson reads it. */
static int parse_number(struct fj_parser *ps, double *out)
{
	struct num_token t = { 0, 1, 0, 0, 0, 0 };
	const char *start = ps->p, *p;

	p = lex_mantissa(start, ps->end, &t);
	if (p)
		p = lex_exponent(p, ps->end, &t);
	if (!p)
		return -1;
	ps->p = p;
	if (t.real)
		return real_value(&t, start, p, out);
	if (!t.m_exact || t.m > (uint64_t)INT64_MAX)
		return -1;	/* jansson: "too big integer" */
	*out = (double)(t.neg ? -(int64_t)t.m : (int64_t)t.m);
	return 0;
}

static int parse_value(struct fj_parser *ps, uint32_t *idx);

static int parse_literal(struct fj_parser *ps, const char *word,
			 enum fj_type type, uint32_t *idx)
{
	size_t n = strlen(word);

	if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n))
		return -1;
	ps->p += n;
	if (ps->p < ps->end && ((*ps->p >= 'a' && *ps->p <= 'z') ||
				(*ps->p >= 'A' && *ps->p <= 'Z') ||
				is_digit(*ps->p)))
		return -1;
	*idx = new_node(ps->d, type);
	return 0;
}

/*
 * The member among those from first with the key of member idx (not
 * linked yet), or 0.
 */
static uint32_t key_seen(const struct fj *d, uint32_t first, uint32_t idx)
{
	const struct fj_node *k = &d->node[idx];
	uint32_t i;

	for (i = first; i; i = d->node[i].next) {
		const struct fj_node *o = &d->node[i];

		if (o->key_hash == k->key_hash && o->key_len == k->key_len &&
		    !memcmp(d->text.buf + o->key, d->text.buf + k->key,
			    k->key_len))
			return i;
	}
	return 0;
}

/*
 * A key twice with the same number or string says one thing, as fio
 * 2.x's padding of a percentile map with "0.00": 0 does; any other
 * repeat is an error (jansson, with JSON_REJECT_DUPLICATES, says where).
 */
static int same_scalar(const struct fj *d, const struct fj_node *a,
		       const struct fj_node *b)
{
	if (a->type != b->type)
		return 0;
	if (a->type == FJ_NUMBER)
		return a->num == b->num;
	if (a->type == FJ_STRING)
		return !strcmp(d->text.buf + a->str, d->text.buf + b->str);
	return a->type == FJ_TRUE || a->type == FJ_FALSE || a->type == FJ_NULL;
}

static int parse_container(struct fj_parser *ps, uint32_t *idx)
{
	int is_obj = *ps->p == '{';
	char close = is_obj ? '}' : ']';
	uint32_t self, prev = 0;
	uint64_t seen = 0;	/* key hashes seen, as bits */
	int options = is_obj && ps->options_next;

	ps->options_next = 0;
	if (++ps->depth > FJ_DEPTH)
		return -1;
	self = new_node(ps->d, is_obj ? FJ_OBJECT : FJ_ARRAY);
	ps->p++;
	skip_blanks(ps);
	if (ps->p < ps->end && *ps->p == close) {
		ps->p++;
		ps->depth--;
		*idx = self;
		return 0;
	}
	for (;;) {
		uint32_t key = 0, key_len = 0, hash = 0, v;

		if (is_obj) {
			if (ps->p >= ps->end || *ps->p != '"' ||
			    parse_string(ps, &key, &key_len, &hash))
				return -1;
			skip_blanks(ps);
			if (ps->p >= ps->end || *ps->p != ':')
				return -1;
			ps->p++;
			skip_blanks(ps);
			ps->options_next = is_options_key(ps->d, key, key_len);
		}
		if (parse_value(ps, &v))
			return -1;
		ps->options_next = 0;
		if (is_obj) {
			struct fj_node *n = &ps->d->node[v];

			n->key = key;
			n->key_len = key_len;
			n->key_hash = hash;
			if (seen & (1ull << (hash & 63))) {
				uint32_t o = key_seen(ps->d,
						      ps->d->node[self].child, v);

				struct fj_node *first = &ps->d->node[o];
				struct fj_node *again = &ps->d->node[v];

				if (o && options && again->type != FJ_OBJECT &&
				    again->type != FJ_ARRAY &&
				    !same_scalar(ps->d, first, again)) {
					/* fio ran with the last */
					if (!ps->d->repeats++)
						ps->d->repeat_key = key;
					first->type = again->type;
					first->str = again->str;
					first->num = again->num;
				} else if (o && !same_scalar(ps->d, first,
							      again)) {
					return -1;
				}
				if (o)
					v = 0;	/* one member, at the first place */
			}
			seen |= 1ull << (hash & 63);
		}
		if (v)
			link_child(ps->d, self, &prev, v);
		skip_blanks(ps);
		if (ps->p >= ps->end)
			return -1;
		if (*ps->p == close)
			break;
		if (*ps->p != ',')
			return -1;
		ps->p++;
		skip_blanks(ps);
	}
	ps->p++;
	ps->depth--;
	*idx = self;
	return 0;
}

static int parse_value(struct fj_parser *ps, uint32_t *idx)
{
	uint32_t off, len, hash;
	double num;

	if (ps->p >= ps->end)
		return -1;
	switch (*ps->p) {
	case '{':
	case '[':
		return parse_container(ps, idx);
	case '"':
		if (parse_string(ps, &off, &len, &hash))
			return -1;
		*idx = new_node(ps->d, FJ_STRING);
		ps->d->node[*idx].str = off;
		return 0;
	case 't':
		return parse_literal(ps, "true", FJ_TRUE, idx);
	case 'f':
		return parse_literal(ps, "false", FJ_FALSE, idx);
	case 'n':
		return parse_literal(ps, "null", FJ_NULL, idx);
	default:
		if (parse_number(ps, &num))
			return -1;
		*idx = new_node(ps->d, FJ_NUMBER);
		ps->d->node[*idx].num = num;
		return 0;
	}
}

static void fj_reset(struct fj *d)
{
	d->nr = 0;
	sbuf_reset(&d->text);
}

int fj_parse(struct fj *d, const char *text, size_t len)
{
	struct fj_parser ps = { d, text, text + len, 0, d->options_root };
	uint32_t root;

	fj_reset(d);
	d->repeats = d->repeat_key = 0;
	if (len > UINT32_MAX / 2)
		return -1;
	skip_blanks(&ps);
	if (parse_value(&ps, &root))
		return -1;
	skip_blanks(&ps);
	if (ps.p != ps.end || root)
		return -1;
	return 0;
}

static uint32_t add_text(struct fj *d, const char *s, size_t len)
{
	uint32_t off = (uint32_t)d->text.len;

	sbuf_add(&d->text, s, len);
	sbuf_addch(&d->text, '\0');
	return off;
}

static uint32_t from_json(struct fj *d, const json_t *v)
{
	uint32_t self, prev = 0, c;
	const char *key;
	json_t *m;
	size_t i;

	switch (json_typeof(v)) {
	case JSON_OBJECT:
		self = new_node(d, FJ_OBJECT);
		json_object_foreach((json_t *)v, key, m) {
			size_t len = strlen(key);

			c = from_json(d, m);
			d->node[c].key = add_text(d, key, len);
			d->node[c].key_len = (uint32_t)len;
			link_child(d, self, &prev, c);
		}
		return self;
	case JSON_ARRAY:
		self = new_node(d, FJ_ARRAY);
		json_array_foreach(v, i, m) {
			c = from_json(d, m);
			link_child(d, self, &prev, c);
		}
		return self;
	case JSON_STRING:
		self = new_node(d, FJ_STRING);
		d->node[self].str = add_text(d, json_string_value(v),
					     json_string_length(v));
		return self;
	case JSON_INTEGER:
	case JSON_REAL:
		self = new_node(d, FJ_NUMBER);
		d->node[self].num = json_number_value(v);
		return self;
	case JSON_TRUE:
		return new_node(d, FJ_TRUE);
	case JSON_FALSE:
		return new_node(d, FJ_FALSE);
	case JSON_NULL:
		break;
	}
	return new_node(d, FJ_NULL);
}

void fj_from_json(struct fj *d, const json_t *v)
{
	fj_reset(d);
	if (v)
		from_json(d, v);
}

const struct fj_node *fj_get(const struct fj *d, const struct fj_node *obj,
			     const char *key)
{
	size_t len;
	uint32_t i;

	if (!fj_is(obj, FJ_OBJECT))
		return NULL;
	len = strlen(key);
	for (i = obj->child; i; i = d->node[i].next) {
		const struct fj_node *n = &d->node[i];

		if (n->key_len == len &&
		    !memcmp(d->text.buf + n->key, key, len))
			return n;
	}
	return NULL;
}
