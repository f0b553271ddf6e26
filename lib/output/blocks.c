/*
 * A table written in blocks formatted on two cores (blocks.h), through
 * parallel_ordered(): ready() starts a block in row order, run() formats
 * it on whichever core is free, use() writes it in row order.
 */
#include "core/compat.h"
#include "core/parallel.h"
#include "output/blocks.h"

/* blocks_write()'s state: a buffer a slot, and whether a write failed */
struct blocks_run {
	const struct blocks *bl;
	FILE *f;
	struct slot_out {
		_Alignas(PARALLEL_ALIGN) struct sbuf sb;
	} out[BLOCK_SLOTS];
	int ret;
};

static size_t block_end(const struct blocks *bl, size_t b)
{
	size_t lo = b * bl->block;

	return bl->nr - lo < bl->block ? bl->nr : lo + bl->block;
}

static void block_ready(void *ctx, size_t b, int slot)
{
	struct blocks_run *r = ctx;
	const struct blocks *bl = r->bl;

	if (bl->start)
		bl->start(bl->ctx, bl->job[slot], b * bl->block,
			  block_end(bl, b));
}

static void block_run(void *ctx, size_t b, int slot)
{
	struct blocks_run *r = ctx;
	const struct blocks *bl = r->bl;

	bl->run(bl->ctx, bl->job[slot], b * bl->block, block_end(bl, b),
		&r->out[slot].sb);
}

static void block_use(void *ctx, size_t b, int slot)
{
	struct blocks_run *r = ctx;
	struct sbuf *out = &r->out[slot].sb;

	(void)b;
	if (fwrite(out->buf, 1, out->len, r->f) != out->len)
		r->ret = -1;
	sbuf_reset(out);
}

int blocks_write(const struct blocks *bl, FILE *f)
{
	static const struct ordered_ops ops = {
		block_ready, block_run, block_use,
	};
	struct blocks_run r = { .bl = bl, .f = f };
	int k;

	for (k = 0; k < BLOCK_SLOTS; k++)
		sbuf_init(&r.out[k].sb, 0);
	parallel_ordered((bl->nr + bl->block - 1) / bl->block,
			 bl->nr >= PARALLEL_MIN / 2 ? BLOCK_SLOTS : 1, &ops,
			 &r);
	for (k = 0; k < BLOCK_SLOTS; k++)
		sbuf_release(&r.out[k].sb);
	return r.ret;
}
