/*
 * t-fio-json.c - unit test of importers/fio/fio-json.c, against jansson: a
 * text fj_parse() takes must be one jansson takes, with the same tree
 * (types, keys in order, strings, numbers bit for bit).  Hand-made
 * cases, numbers of every shape, and seeded random mutations of a fio
 * job, so that the subset is checked where it borders on errors.
 */
#include "core/compat.h"
#include "../../importers/fio/fio-json.h"

#include "test-lib.h"

static uint64_t rng = 88172645463325252ull;

static uint64_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* The same value, node by node?  Keys of a's members from fj_key(). */
static int same_tree(const struct fj *a, const struct fj_node *x,
		     const struct fj *b, const struct fj_node *y)
{
	const struct fj_node *cx, *cy;

	if (x->type != y->type)
		return 0;
	switch (x->type) {
	case FJ_NUMBER:
		return !memcmp(&x->num, &y->num, sizeof(x->num));
	case FJ_STRING:
		return !strcmp(fj_str(a, x), fj_str(b, y));
	case FJ_OBJECT:
	case FJ_ARRAY:
		for (cx = fj_first(a, x), cy = fj_first(b, y); cx && cy;
		     cx = fj_next(a, cx), cy = fj_next(b, cy)) {
			if (x->type == FJ_OBJECT &&
			    strcmp(fj_key(a, cx), fj_key(b, cy)))
				return 0;
			if (!same_tree(a, cx, b, cy))
				return 0;
		}
		return !cx && !cy;
	}
	return 1;
}

/*
 * Parse text both ways.  Returns 1 if fj_parse() took it (and checks
 * that jansson read the same), 0 if it left it to jansson.
 */
static int differ_loc(const char *file, int line, const char *text,
		      size_t len)
{
	struct fj a = FJ_INIT, b = FJ_INIT;
	json_error_t jerr;
	json_t *v = json_loadb(text, len, JSON_DECODE_ANY, &jerr);
	int took = !fj_parse(&a, text, len);

	if (took) {
		fj_from_json(&b, v);
		if (!check_bool_loc(file, line, "jansson takes it too", !!v) ||
		    !check_bool_loc(file, line, "the same tree",
				    same_tree(&a, fj_root(&a), &b,
					      fj_root(&b))))
			test_msg("text: %.*s", (int)len, text);
	}
	json_decref(v);
	fj_release(&a);
	fj_release(&b);
	return took;
}

#define differ(text) differ_loc(__FILE__, __LINE__, (text), strlen(text))

static const char job[] =
	"{\n  \"jobname\" : \"b\",\n  \"groupid\" : 0,\n"
	"  \"error\" : 0,\n  \"job options\" : {\n    \"name\" : \"b\",\n"
	"    \"rw\" : \"randread\"\n  },\n  \"read\" : {\n"
	"    \"io_bytes\" : 1048576,\n    \"bw\" : 122146,\n"
	"    \"iops\" : 30536.585366,\n    \"runtime\" : 9,\n"
	"    \"total_ios\" : 256,\n    \"clat_ns\" : {\n"
	"      \"min\" : 24576,\n      \"mean\" : 28739.71319,\n"
	"      \"stddev\" : 1.6902464353e4,\n      \"N\" : 256,\n"
	"      \"percentile\" : {\n        \"1.000000\" : 25984,\n"
	"        \"99.950000\" : 226304\n      }\n    }\n  },\n"
	"  \"usr_cpu\" : 0.000000,\n  \"sys_cpu\" : -0.0,\n"
	"  \"latency_us\" : { \"2\" : 0.00, \"50\" : 97.265625 },\n"
	"  \"flags\" : [true, false, null, [], {},\n"
	"    \"a\\\"\\\\\\/\\b\\f\\n\\r\\t\"]\n}\n";

TEST(cases)
{
	static const char *const taken[] = {
		"0", "-0", "-0.0", "1", "-1", "123456789012345678",
		"9223372036854775807", "-9223372036854775807", "0.1",
		"1e5", "1E-5", "2.5e+3", "123.456e-7", "17976931348623157e292",
		"4.9e-324", "1e-400", "0.000000000000000000000000001",
		"9007199254740993.0", "123456789012345678901234.5",
		"\"\"", "\"abc\"", "\"\\n\"", "[]", "{}", " [ 1 , 2 ] ",
		"{\"a\":{\"b\":[1,{\"c\":null}]}}", "true", "false", "null",
		"\"\x7f\"",
	};
	static const char *const left[] = {
		"", " ", "01", "-", "-a", "1.", ".5", "1e", "1e+", "+1", "1x",
		"9223372036854775808", "-9223372036854775808",
		"12345678901234567890", "1e400", "-1e400", "\"\\u0041\"",
		"\"\xc3\xa9\"", "\"a\tb\"", "\"abc", "[1,]", "[1 2]",
		"{\"a\"}", "{\"a\":1,}", "{\"a\":1,\"a\":2}", "{1:2}", "tru",
		"truex", "nul", "[1]]", "[1] [2]", "{\"a\":1}}", "\"\\x\"",
		"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["
		"[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]"
		"]]]]]]]]]]]]",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(taken); i++)
		if (!check(differ(taken[i])))
			test_msg("not taken: %s", taken[i]);
	for (i = 0; i < ARRAY_SIZE(left); i++)
		if (!check(!differ(left[i])))
			test_msg("taken: %s", left[i]);
	check(differ(job));
}

TEST(lookups)
{
	struct fj d = FJ_INIT;
	const struct fj_node *read, *n;

	check_int(0, fj_parse(&d, job, strlen(job)));
	read = fj_get(&d, fj_root(&d), "read");
	check(fj_is(read, FJ_OBJECT));
	check_double_eq(30536.585366, fj_num(fj_get(&d, read, "iops")));
	check_str("b", fj_str(&d, fj_get(&d, fj_root(&d), "jobname")));
	check(!fj_get(&d, read, "write"));
	check(!fj_get(&d, fj_get(&d, read, "bw"), "x"));
	check_double_eq(0, fj_num(NULL));
	check(!fj_str(&d, fj_get(&d, read, "bw")));
	n = fj_first(&d, fj_get(&d, fj_get(&d, read, "clat_ns"),
				"percentile"));
	check_str("1.000000", fj_key(&d, n));
	check_str("99.950000", fj_key(&d, fj_next(&d, n)));
	check(!fj_next(&d, fj_next(&d, n)));
	fj_release(&d);
}

/* Numbers of random shapes: whatever is taken reads as jansson reads. */
TEST(numbers)
{
	int i, taken = 0;

	for (i = 0; i < 200000; i++) {
		char buf[80];
		int n = 0, k, digits = 1 + (int)(next_rand() % 25);

		if (next_rand() % 2)
			buf[n++] = '-';
		for (k = 0; k < digits; k++)
			buf[n++] = (char)('0' + next_rand() % 10);
		if (next_rand() % 3) {
			buf[n++] = '.';
			digits = 1 + (int)(next_rand() % 20);
			for (k = 0; k < digits; k++)
				buf[n++] = (char)('0' + next_rand() % 10);
		}
		if (!(next_rand() % 3))
			n += snprintf(buf + n, sizeof(buf) - (size_t)n, "e%d",
				      (int)(next_rand() % 700) - 350);
		taken += differ_loc(__FILE__, __LINE__, buf, (size_t)n);
	}
	/* most are valid; those with a leading 0 and more digits are not */
	check(taken > 100000);
}

/* Random damage to a job: taken or not, never taken wrongly. */
TEST(mutations)
{
	size_t len = strlen(job);
	char *buf = xmalloc(len + 8);
	int i, k, taken = 0;
	static const char bytes[] = "{}[]\",:.-+e0123456789 \\nut\x01\xc3";

	for (i = 0; i < 100000; i++) {
		size_t n = len;

		memcpy(buf, job, len);
		for (k = 0; k < 1 + (int)(next_rand() % 3) && n > 1; k++) {
			size_t at = next_rand() % n;

			switch (next_rand() % 3) {
			case 0:
				buf[at] = bytes[next_rand() %
						(sizeof(bytes) - 1)];
				break;
			case 1:
				memmove(buf + at, buf + at + 1, n - at - 1);
				n--;
				break;
			default:
				n = at + 1;	/* cut short */
				break;
			}
		}
		taken += differ_loc(__FILE__, __LINE__, buf, n);
	}
	check(taken > 0);
	free(buf);
}

int main(void)
{
	test_cases();
	test_lookups();
	test_numbers();
	test_mutations();
	return test_done();
}
