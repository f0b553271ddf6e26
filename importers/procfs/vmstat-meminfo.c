/*
 * The procfs importer's /proc/vmstat and /proc/meminfo lines, and the
 * fast path of a monitor's vmstat series: a line whose name the
 * previous record had at its place, read where it lies.
 */
#include "core/compat.h"
#include "core/strparse.h"
#include "procfs-int.h"

/*
 * s[0..n) == t[0..n), each readable for n bytes: compared by words, with
 * no call (a vmstat name is 10 to 40 bytes; memcmp()'s call cost more
 * than its bytes)
 */
static inline int same_bytes(const char *s, const char *t, size_t n)
{
	uint64_t a, b;
	uint32_t x, y;
	size_t i;

	if (n >= 8) {
		for (i = 0; i + 8 < n; i += 8) {
			memcpy(&a, s + i, 8);
			memcpy(&b, t + i, 8);
			if (a != b)
				return 0;
		}
		/* the last 8, overlapping what was compared */
		memcpy(&a, s + n - 8, 8);
		memcpy(&b, t + n - 8, 8);
		return a == b;
	}
	if (n >= 4) {
		memcpy(&x, s, 4);
		memcpy(&y, t, 4);
		if (x != y)
			return 0;
		memcpy(&x, s + n - 4, 4);
		memcpy(&y, t + n - 4, 4);
		return x == y;
	}
	for (i = 0; i < n; i++)
		if (s[i] != t[i])
			return 0;
	return 1;
}

/*
 * The k <= 8 digits that end at end, as a number, or -1 when one of
 * them is not a digit; the 8 bytes before end must be readable.  All
 * eight at once in a word (the bytes before the digits read as '0').
 */
static inline int64_t digits_word(const char *end, int k)
{
	uint64_t w, t;

	memcpy(&w, end - 8, 8);
	/* little-endian: the first of the 8 bytes is the lowest */
	if (k < 8)
		w = w >> (8 * (8 - k)) << (8 * (8 - k)) |
		    (0x3030303030303030ULL >> (8 * k));
	/* each byte 0x30 to 0x39: a high nibble of 3, and 6 more keeps it */
	t = (w + 0x0606060606060606ULL) | w;
	if ((w & 0xf0f0f0f0f0f0f0f0ULL) != 0x3030303030303030ULL ||
	    (t & 0xf0f0f0f0f0f0f0f0ULL) != 0x3030303030303030ULL)
		return -1;
	w -= 0x3030303030303030ULL;
	/* pairs, then fours, then the eight: the first digit highest */
	w = (w * 10 + (w >> 8)) & 0x00ff00ff00ff00ffULL;
	w = (w * 100 + (w >> 16)) & 0x0000ffff0000ffffULL;
	return (int64_t)((w * 10000 + (w >> 32)) & 0xffffffffULL);
}

/*
 * The count of the line the kernel prints, `name digits`, from p just
 * after the name to end (s the line's start): one space, at most 19
 * digits, nothing after (trailing blanks neither); 0, or -1 for anything
 * else, which pf_name_value() reads or refuses.  Up to 16 digits by words.
 */
static inline int vm_count(const char *s, const char *p, const char *end,
			   double *v)
{
	const char *d;
	uint64_t u = 0;
	long k = end - p - 1;

	if (k < 1 || *p != ' ')
		return -1;
	if (k <= 16 && end - s >= 8 + (k > 8 ? 8 : 0)) {
		int64_t lo = digits_word(end, k > 8 ? 8 : (int)k), hi = 0;

		if (k > 8)
			hi = digits_word(end - 8, (int)k - 8);
		if (lo < 0 || hi < 0)
			return -1;
		*v = (double)((uint64_t)hi * 100000000 + (uint64_t)lo);
		return 0;
	}
	if (k > 19)
		return -1;
	for (d = p + 1; d < end && is_digit(*d); d++)
		u = u * 10 + (uint64_t)(*d - '0');
	if (d != end)
		return -1;
	*v = (double)u;
	return 0;
}

/*
 * A line of a monitor's /proc/vmstat record read straight from the
 * input's buffer (input_peekline(): not copied, not NUL-terminated):
 * when it is the plain `name digits` line whose name the previous record
 * had at this place, its point is added as pf_vmstat_line() would add it,
 * and 1 is returned; else 0, with nothing changed, and the line goes the
 * usual way.  The name is compared where it lies, without reading it
 * first: the previous record's is made of word bytes (pf_name_value()), so
 * a line that has it and then a space has exactly it.
 */
int pf_vm_fast_line(struct procfs *st, const char *s, size_t len,
		    long lineno)
{
	const struct metric *m;
	size_t n;
	double v;

	if (st->series != 1 || st->sec != SEC_VMSTAT || st->cut.len ||
	    st->pos >= st->nr_order)
		return 0;
	m = &st->m[st->order[st->pos]];
	if (m->sec != SEC_VMSTAT || m->len <= st->vm_pfx_len)
		return 0;
	n = m->len - st->vm_pfx_len;
	if (len <= n || !same_bytes(s, m->name + st->vm_pfx_len, n) ||
	    vm_count(s, s + n, s + len, &v))
		return 0;
	st->line = lineno;
	pf_add_point_i(st, SEC_VMSTAT, same_in_order(st), v, lineno);
	return 1;
}

/* Is the value after the name of line s a negative number? */
static int negative_value(const char *s)
{
	s += strcspn(s, " \t");
	s += strspn(s, " \t");
	return s[0] == '-' && s[1] >= '0' && s[1] <= '9';
}

int pf_vmstat_line(struct procfs *st, const char *s)
{
	size_t n;
	double v;

	if (pf_vm_fast_line(st, s, strlen(s), st->line))
		return 0;
	if (pf_name_value(s, &n, &v))
		return negative_value(s) ?
		       pf_bad_line(st, "a negative count, which the kernel "
				   "never prints (its counters are unsigned): "
				   "'%.60s'", s) :
		       pf_bad_line(st, "expected 'name value' (a /proc/vmstat "
				   "line), got '%.60s'", s);
	pf_make_name(st, NULL, "proc-vmstat.", 12, NULL);
	sbuf_add(&st->name, s, n);
	add_vm_point(st, SEC_VMSTAT, s, n, v);
	return 0;
}

/* Length of a meminfo key ("Active(file)") before its ':', or 0. */
static size_t meminfo_key_len(const char *s)
{
	size_t n = 0;

	while (is_word(s[n]) || s[n] == '(' || s[n] == ')')
		n++;
	return s[n] == ':' ? n : 0;
}

int pf_meminfo_line(struct procfs *st, const char *s)
{
	size_t n = meminfo_key_len(s);
	const char *p = s + n + 1, *unit = NULL;
	double v;

	if (!n)
		goto bad;
	str_skip_blanks(&p);
	if (pf_get_count(&p, &v))
		goto bad;
	str_skip_blanks(&p);
	if (!str_expect_lit(&p, "kB"))
		unit = "kB";
	str_skip_blanks(&p);
	if (*p)
		goto bad;
	pf_make_name(st, NULL, "meminfo.", 8, NULL);
	sbuf_add(&st->name, s, n);
	add_point(st, SEC_MEMINFO, MK_GAUGE, unit, v, st->line);
	return 0;
bad:
	if (negative_value(s))
		return pf_bad_line(st, "a negative count, which the kernel "
				   "never prints (its counters are unsigned): "
				   "'%.60s'", s);
	return pf_bad_line(st, "expected 'Name: value [kB]' (a /proc/meminfo "
			   "line), got '%.60s'", s);
}

/* Which file a section's first line comes from; SEC_NONE = none. */
enum section pf_classify(const char *s)
{
	size_t n;
	double v;

	if (starts_with(s, "Node ") && strstr(s, ", zone"))
		return SEC_ZONEINFO;
	if (meminfo_key_len(s))
		return SEC_MEMINFO;
	if (!pf_name_value(s, &n, &v))
		return SEC_VMSTAT;
	return SEC_NONE;
}
