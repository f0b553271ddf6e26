/*
 * libFuzzer target for the MMTests extractors (importers/mmtests/): an
 * input is a test's logs/ directory written as text,
 *
 *	<test name>\n
 *	<file name>\n<content>\n---\n<file name>\n<content>...
 *
 * written into a fresh directory and read by the test's extractor through
 * mmtests_extract_print() (what `perfsift debug mmtests-extract` runs),
 * its output thrown away.  Crashes, leaks and undefined behaviour are
 * what it looks for; errors are expected and kept quiet.  File names are
 * kept to [A-Za-z0-9._-] (no path, no leading dot); an input naming a
 * test no extractor knows tries blogbench.
 *
 *   make fuzz            builds build-fuzz/fuzz-mmtests (clang)
 *   build-fuzz/fuzz-mmtests -max_total_time=60 CORPUS_DIR
 *   scripts/fuzz-corpus.sh writes seeds of this shape from tests/data
 *   and the sample trees.
 */
#include "core/compat.h"
#include "mutate.h"
#include "core/err.h"
#include "core/sbuf.h"
#include "../../importers/mmtests/extract.h"
#include "../../importers/formats.h"
#include <ctype.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char root[64];

static int rm_entry(const char *path, const struct stat *st, int flag,
		    struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void cleanup(void)
{
	nftw(root, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
}

/* A name we may write: [A-Za-z0-9._-]+, not starting with '.'. */
static int safe_name(const char *s, size_t n)
{
	size_t i;

	if (!n || n > 200 || s[0] == '.')
		return 0;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("._-", s[i]))
			return 0;
	return 1;
}

static void write_file(const char *dir, const char *name, size_t nlen,
		       const uint8_t *p, size_t len)
{
	char *path = xstrfmt("%s/%.*s", dir, (int)nlen, name);
	FILE *f = fopen(path, "wb");

	if (f) {
		fwrite(p, 1, len, f);
		fclose(f);
	}
	free(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *p = data, *end = data + size, *nl;
	char test[64], *logs, *testdir;
	struct sbuf errors = SBUF_INIT;
	size_t n;
	FILE *out;

	if (!root[0]) {
		importer_use(importer_table, importer_table_size);
		snprintf(root, sizeof(root), "/tmp/fuzz-mmtests.%d",
			 (int)getpid());
		atexit(cleanup);
	}
	nl = memchr(p, '\n', size);
	n = nl ? (size_t)(nl - p) : size;
	if (!safe_name((const char *)p, n) || n >= sizeof(test))
		snprintf(test, sizeof(test), "blogbench");
	else
		snprintf(test, sizeof(test), "%.*s", (int)n, (const char *)p);
	if (!mmtests_extractor_for(test))
		snprintf(test, sizeof(test), "blogbench");
	p = nl ? nl + 1 : end;
	nftw(root, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
	testdir = xstrfmt("%s/%s", root, test);
	logs = xstrfmt("%s/logs", testdir);
	mkdir(root, 0700);
	mkdir(testdir, 0700);
	mkdir(logs, 0700);
	while (p < end) {
		const uint8_t *name = p, *body, *sep;
		size_t nlen;

		nl = memchr(p, '\n', (size_t)(end - p));
		nlen = nl ? (size_t)(nl - name) : (size_t)(end - name);
		body = nl ? nl + 1 : end;
		sep = memmem(body, (size_t)(end - body), "\n---\n", 5);
		if (safe_name((const char *)name, nlen))
			write_file(logs, (const char *)name, nlen, body,
				   (size_t)((sep ? sep : end) - body));
		p = sep ? sep + 5 : end;
	}
	out = fopen("/dev/null", "w");
	err_capture(&errors);	/* errors are expected: keep them quiet */
	err_set_quiet_warnings(1);
	mmtests_extract_print(testdir, test, out);
	err_capture(NULL);
	sbuf_release(&errors);
	fclose(out);
	free(logs);
	free(testdir);
	return 0;
}
