/*
 * The import pipeline (import.h): the files whose importer needs nothing
 * back from the database (IMP_RECORDED: fio's JSON, normal and terse
 * reports) are read, hashed and parsed on a thread of their own, in the
 * order of the command's items, while the connection's thread stores the
 * ones before.  Each such file's calls and messages are recorded
 * (store/emitlog.h) and handed over in chunks; the import driver replays
 * them in that file's own transaction when the command's loop reaches it
 * (import_recorded() in import.c).  What the parser recorded for a file
 * not stored is thrown away unread.
 *
 * Every other item, a file that may have been imported before (its path
 * with its size is in the database: the driver's hash check), and a path
 * named again in the same command, is left to the driver as it would be
 * without the pipeline.  The chunks in flight are bounded (PIPE_BYTES):
 * memory stays bounded whatever the input, and the parser waits for the
 * replay.
 */
#include "core/compat.h"
#include <pthread.h>
#include <sys/stat.h>
#include "core/input.h"
#include "core/parallel.h"
#include "core/strmap.h"
#include "import/import.h"
#include "import/importer.h"
#include "store/emitlog.h"

/* bytes of recorded calls in flight across the files before it waits */
#define PIPE_BYTES (8u << 20)

struct chunk {
	struct chunk *next;
	char *buf;
	size_t len;
};

enum entry_state {
	PE_WAIT,		/* the parser has not come to it */
	PE_DRIVER,		/* the driver imports it as it would alone */
	PE_RECORDED,		/* recorded: chunks come, then done */
};

struct pipe_entry {
	enum entry_state state;
	struct chunk *head, **tail;
	int done;		/* the parser has finished it */
	const struct importer *imp;
	int64_t file_size;
	int parse_rc;		/* the parser's return */
	int hash_rc;		/* input_finish()'s, after a parse that passed */
	char hex[65];
	uint64_t size;
};

struct import_pipe {
	pthread_mutex_t mu;
	pthread_cond_t cv;	/* any change: one thread waits on each side */
	struct worker *w;	/* the parser's thread (core/parallel.h) */
	const struct import_opts *o;
	const struct import_item *items;
	size_t nr, next;	/* next: the item the driver takes next */
	size_t recorded;	/* items taken so far that were recorded */
	struct pipe_entry *e;
	size_t bytes;		/* in flight */
	int stop;
};

/* The parser's side of one file: what full() hands its chunks to. */
struct recording {
	struct import_pipe *p;
	struct pipe_entry *e;
	struct emit_log log;
};

static void push(struct import_pipe *p, struct pipe_entry *e,
		 struct sbuf *sb)
{
	struct chunk *c;

	if (!sb->len)
		return;
	c = xmalloc(sizeof(*c));
	c->next = NULL;
	c->buf = sbuf_detach(sb, &c->len);
	pthread_mutex_lock(&p->mu);
	while (p->bytes >= PIPE_BYTES && !p->stop)
		pthread_cond_wait(&p->cv, &p->mu);
	if (p->stop) {
		pthread_mutex_unlock(&p->mu);
		free(c->buf);
		free(c);
		return;
	}
	*e->tail = c;
	e->tail = &c->next;
	p->bytes += c->len;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
}

static void log_full(struct emit_log *log, void *data)
{
	struct recording *rec = data;

	push(rec->p, rec->e, &log->buf);
}

static void divert(void *data, int is_error, const char *msg)
{
	struct recording *rec = data;

	emit_log_msg(&rec->log, is_error ? EMIT_ERROR : EMIT_WARNING, msg);
}

static void publish(struct import_pipe *p, struct pipe_entry *e,
		    enum entry_state state)
{
	pthread_mutex_lock(&p->mu);
	e->state = state;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
}

/* Item i: recorded if its importer may be, else left to the driver. */
static void record_item(struct import_pipe *p, size_t i)
{
	const struct import_item *item = &p->items[i];
	struct pipe_entry *e = &p->e[i];
	struct recording rec = { p, e, { SBUF_INIT, log_full, NULL } };
	struct import_ctx ctx;
	struct input in;
	int rc;

	rec.log.data = &rec;
	if (e->state == PE_DRIVER)
		return;		/* import_pipe_start() said so */
	/* what this thread says is kept, and said by the driver if at all */
	err_divert(divert, &rec);
	if (input_open(&in, item->path, -1)) {
		err_divert(NULL, NULL);
		sbuf_release(&rec.log.buf);
		publish(p, e, PE_DRIVER);
		return;
	}
	e->imp = importer_pick(p->o->format, item->path, in.head,
			       in.head_len);
	if (!e->imp || !(e->imp->flags & IMP_RECORDED)) {
		input_close(&in);
		err_divert(NULL, NULL);
		sbuf_release(&rec.log.buf);
		publish(p, e, PE_DRIVER);
		return;
	}
	publish(p, e, PE_RECORDED);

	memset(&ctx, 0, sizeof(ctx));
	ctx.path = item->path;
	ctx.log = &rec.log;
	rc = e->imp->parse(&ctx, &in);
	e->parse_rc = rc;
	if (!rc)
		e->hash_rc = input_finish(&in, e->hex, &e->size);
	input_close(&in);
	err_divert(NULL, NULL);
	push(p, e, &rec.log.buf);
	sbuf_release(&rec.log.buf);
	pthread_mutex_lock(&p->mu);
	e->done = 1;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
}

/* the worker's one job: every item in turn */
static void run_pipe(void *ctx, void *job)
{
	struct import_pipe *p = ctx;
	size_t i;

	(void)job;
	for (i = 0; i < p->nr; i++) {
		int stop;

		pthread_mutex_lock(&p->mu);
		stop = p->stop;
		pthread_mutex_unlock(&p->mu);
		if (stop)
			break;
		record_item(p, i);
	}
}

struct import_pipe *import_pipe_start(struct db *db,
				      const struct import_opts *o,
				      const struct import_item *items,
				      size_t nr)
{
	struct import_pipe *p;
	struct strmap paths = STRMAP_INIT;
	size_t i, n = 0;

	if (!nr || !parallel_enabled())
		return NULL;
	p = xcalloc(1, sizeof(*p));
	p->o = o;
	p->items = items;
	p->nr = nr;
	p->e = xcalloc(nr, sizeof(*p->e));
	for (i = 0; i < nr; i++) {
		struct pipe_entry *e = &p->e[i];
		struct stat st;
		int64_t seen = 1;

		e->tail = &e->head;
		/*
		 * Imported before with this size: the driver hashes it and
		 * most likely finds it there, without a parse.  A path named
		 * again in this command: the driver checks it after the
		 * first.  So no recorded file can have been imported by the
		 * time its turn comes but for its content, which its
		 * transaction checks.
		 */
		if (items[i].dir_imp || !strcmp(items[i].path, "-") ||
		    strmap_get_or_put(&paths, items[i].path,
				      strlen(items[i].path), &seen) ||
		    stat(items[i].path, &st) || !S_ISREG(st.st_mode) ||
		    db_imported_path(db, items[i].path,
				     (int64_t)st.st_size) != 0)
			e->state = PE_DRIVER;	/* before the thread reads it */
		else
			e->file_size = (int64_t)st.st_size;
		n += e->state != PE_DRIVER;
	}
	strmap_clear(&paths);
	/*
	 * One file gains nothing: fio's parser makes its calls when its
	 * document ends, so the replay could only follow the parse
	 */
	if (n >= 2)
		p->w = worker_start(run_pipe, p);
	if (!p->w) {
		free(p->e);
		free(p);
		return NULL;
	}
	/* ready before the job is handed over: the thread waits for it */
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->cv, NULL);
	worker_queue(p->w, p);
	return p;
}

void import_pipe_stop(struct import_pipe *p)
{
	size_t i;

	if (!p)
		return;
	pthread_mutex_lock(&p->mu);
	p->stop = 1;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
	worker_stop(p->w);	/* the parser's thread ends */
	for (i = 0; i < p->nr; i++)
		while (p->e[i].head) {
			struct chunk *c = p->e[i].head;

			p->e[i].head = c->next;
			free(c->buf);
			free(c);
		}
	pthread_cond_destroy(&p->cv);
	pthread_mutex_destroy(&p->mu);
	free(p->e);
	free(p);
}

struct pipe_entry *import_pipe_take(struct import_pipe *p,
				    const struct import_item *item)
{
	struct pipe_entry *e;
	size_t i;

	if (item < p->items || item >= p->items + p->nr)
		return NULL;	/* not one of the pipeline's items */
	i = (size_t)(item - p->items);
	if (i != p->next)
		BUG("item %zu taken from the import pipeline before %zu", i,
		    p->next);
	p->next++;
	e = &p->e[i];
	pthread_mutex_lock(&p->mu);
	while (e->state == PE_WAIT)
		pthread_cond_wait(&p->cv, &p->mu);
	pthread_mutex_unlock(&p->mu);
	if (e->state != PE_RECORDED)
		return NULL;
	p->recorded++;
	return e;
}

size_t import_pipe_recorded(const struct import_pipe *p)
{
	return p ? p->recorded : 0;
}

int import_pipe_next(struct import_pipe *p, struct pipe_entry *e,
		     char **buf, size_t *len)
{
	struct chunk *c;

	pthread_mutex_lock(&p->mu);
	while (!e->head && !e->done)
		pthread_cond_wait(&p->cv, &p->mu);
	c = e->head;
	if (c) {
		e->head = c->next;
		if (!e->head)
			e->tail = &e->head;
		p->bytes -= c->len;
		pthread_cond_broadcast(&p->cv);
	}
	pthread_mutex_unlock(&p->mu);
	if (!c)
		return 0;
	*buf = c->buf;
	*len = c->len;
	free(c);
	return 1;
}

const struct importer *import_pipe_importer(const struct pipe_entry *e,
					    int64_t *file_size)
{
	*file_size = e->file_size;
	return e->imp;
}

int import_pipe_result(const struct pipe_entry *e, char hex[65],
		       uint64_t *size)
{
	if (e->parse_rc || e->hash_rc)
		return -1;
	memcpy(hex, e->hex, 65);
	*size = e->size;
	return 0;
}
