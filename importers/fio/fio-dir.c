/*
 * The fio-dir importer: a directory holding one fio JSON output and the
 * logs of its jobs (fio-log.c), imported as one result (one run).
 */
#include "core/compat.h"
#include "core/input.h"
#include "import/importer.h"
#include "../formats.h"
#include "fio.h"

static int is_log(const struct member *m)
{
	return fio_log_named(m->name);
}

static int fio_dir_detect_dir(const char *dir UNUSED, const struct member *m,
		       size_t nr)
{
	size_t i, logs = 0, others = 0, json = 0;

	for (i = 0; i < nr; i++) {
		if (is_log(&m[i]))
			logs++;
		else if (others++, strstr(m[i].name, "json"))
			json++;
	}
	if (!logs)
		return 0;
	if (others == 1)
		return 55;
	return json == 1 ? 50 : 0;
}

static int fio_dir_parse_dir(struct import_ctx *ctx, const char *dir,
		      const struct member *m, size_t nr)
{
	const struct member *json = NULL;
	struct fio_jobs jm;
	size_t i;
	int ret = -1;

	memset(&jm, 0, sizeof(jm));
	for (i = 0; i < nr; i++) {
		struct input in;
		int s;

		if (is_log(&m[i]))
			continue;
		if (input_open(&in, m[i].path, -1))
			return -1;
		s = fio_detect(m[i].path, in.head, in.head_len);
		input_close(&in);
		if (s <= 0)
			continue;
		if (json)
			return error("%s: two fio JSON outputs, '%s' and '%s': "
				     "a directory of logs is one result", dir,
				     json->name, m[i].name);
		json = &m[i];
	}
	if (!json)
		return error("%s: no fio JSON output beside the logs", dir);
	if (import_nested(ctx, "fio", json) || fio_jobs_load(&jm, json->path))
		goto out;
	for (i = 0; i < nr; i++) {
		const char *keep = ctx->path;
		struct input in;
		int r;

		if (!is_log(&m[i]))
			continue;
		if (import_open_member(ctx, &m[i], &in))
			goto out;
		ctx->path = m[i].path;
		r = fio_log_read(ctx, &in, &jm);
		ctx->path = keep;
		if (r) {
			input_close(&in);
			goto out;
		}
		if (import_close_member(ctx, &m[i], &in))
			goto out;
	}
	ret = 0;
out:
	fio_jobs_release(&jm);
	return ret;
}

const struct importer importer_fio_dir = {
	.name = "fio-dir",
	.family = "fio",
	.what = "a directory holding one fio JSON output and its "
		"logs: one result",
	.flags = IMP_DIRS | IMP_SAMPLES | IMP_SERIES,
	.detect_dir = fio_dir_detect_dir,
	.parse_dir = fio_dir_parse_dir,
};

