# perfsift: one plain GNU Makefile, no configure step.
#
#   make            build ./perfsift
#   make check      install missing packages, build, run every test
#   make asan       the tests again under ASan + UBSan
#   make demo       the main job on real data it makes itself (fio)
#   make bench      speed figures against the SPEC targets
#   make stress     kills, concurrent writers, a full disk (minutes)
#   make sim        the significance simulation into docs/statistics-sim.md
#   make cp-synth   change points found among planted steps (docs/changepoints.md)
#   make fuzz-run   libFuzzer on every importer (FUZZ_SECONDS=60)
#   make update-golden   regenerate golden files (review with git diff)

CC       ?= cc
# CFLAGS is the user's (optimisation, debug); the project's own flags are
# added in ALL_CFLAGS, so that `make CFLAGS=-O0` keeps them.
CFLAGS   ?= -O2 -g
WARNINGS := -Wall -Wextra -Wshadow -Wstrict-prototypes \
            -Wmissing-prototypes -Wwrite-strings -Wformat=2 -Wvla -Wundef
WERROR   ?= 1
ALL_CFLAGS = -std=gnu11 $(WARNINGS) $(if $(filter 1,$(WERROR)),-Werror) $(CFLAGS)
PKGS     := sqlite3 jansson libcurl zlib yaml-0.1 gmime-3.0 libpq
CPPFLAGS += -Ilib -D_GNU_SOURCE -MMD -MP $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
LDLIBS   += $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lm -pthread
# libraries no object needs are not linked: libcurl is only compiled
# against, lib/mail/smtp.c loads it when it sends (see there why)
LDFLAGS  += -Wl,--as-needed
ifdef SANITIZE
ALL_CFLAGS += -fsanitize=$(SANITIZE) -fno-sanitize-recover=all -fno-omit-frame-pointer
LDFLAGS  += -fsanitize=$(SANITIZE)
endif
# Objects go to their own folder per build flavour, so that `make asan`
# does not clobber the normal build.
B        ?= build
V        ?= 0
ifeq ($(V),0)
QUIET_CC  = @echo '   CC      $@';
QUIET_LD  = @echo '   LINK    $@';
QUIET_GEN = @echo '   GEN     $@';
endif

LIB_SRC := $(wildcard lib/*/*.c) $(wildcard importers/*.c) \
	   $(wildcard importers/*/*.c) $(wildcard plots/*.c) \
	   $(wildcard report/*.c)
CLI_SRC := $(wildcard cli/*.c)
SCHEMA  := $(sort $(wildcard schema/*.sql))
# The server's steps, made from the migrations (schema/README.md): the
# whole schema at version PG_BASE, then one step for each later migration,
# under its name.
PG_BASE := 6
PG_LATER := $(wordlist 2,$(words $(SCHEMA)),\
	    $(wordlist $(PG_BASE),$(words $(SCHEMA)),$(SCHEMA)))
SCHEMA_PG := schema/pg/$(shell printf %04d $(PG_BASE))-schema.sql \
	     $(PG_LATER:schema/%=schema/pg/%)
PG_INPUTS := schema/pg/server.sql schema/pg/columns
PG_SCHEMA_SRC := scripts/pg-schema.c lib/core/sbuf.c lib/core/err.c \
		 lib/core/xalloc.c
LIB_OBJ := $(LIB_SRC:%.c=$(B)/%.o) $(B)/schema.o
CLI_OBJ := $(CLI_SRC:%.c=$(B)/%.o)
UNIT_SRC := $(wildcard tests/unit/t-*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)
PROG    := $(if $(filter build,$(B)),perfsift,$(B)/perfsift)

all: deps-build $(PROG)

deps-build:
	@scripts/deps.sh build

$(PROG): $(CLI_OBJ) $(B)/libperfsift.a
	$(QUIET_LD)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(B)/libperfsift.a: $(LIB_OBJ)
	@rm -f $@
	@ar rcs $@ $^

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(QUIET_CC)$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<

# The server's steps are written beside their sources, where the server
# tests and psql read them (git ignores them).  The generator is built
# without the sanitizers, and is an order-only prerequisite: each build
# flavour (build/, build-asan/) has its own copy, which does not make
# the steps again.
$(SCHEMA_PG): schema/pg/%.sql: $(SCHEMA) $(PG_INPUTS) $(PG_SCHEMA_SRC) \
		$(wildcard lib/core/*.h) | $(B)/pg-schema
	$(QUIET_GEN)$(B)/pg-schema $(PG_BASE) $(firstword $(subst -, ,$*)) \
		$(PG_INPUTS) $(SCHEMA) >$@

$(B)/pg-schema: $(PG_SCHEMA_SRC) $(wildcard lib/core/*.h)
	@mkdir -p $(dir $@)
	$(QUIET_LD)$(CC) -O2 -g -std=gnu11 $(WARNINGS) \
		$(if $(filter 1,$(WERROR)),-Werror) -Ilib -D_GNU_SOURCE \
		-o $@ $(PG_SCHEMA_SRC) \
		$(shell pkg-config --cflags --libs sqlite3) -pthread

# The schema migrations, embedded as C strings, in file-name order.
$(B)/schema.c: $(SCHEMA) $(SCHEMA_PG) scripts/embed-schema.sh
	@mkdir -p $(dir $@)
	$(QUIET_GEN)scripts/embed-schema.sh $(SCHEMA) -- $(SCHEMA_PG) >$@

$(B)/schema.o: $(B)/schema.c
	$(QUIET_CC)$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<

$(B)/tests/t-%: tests/unit/t-%.c tests/unit/test-lib.c tests/unit/test-lib.h \
		$(B)/libperfsift.a
	@mkdir -p $(dir $@)
	$(QUIET_LD)$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ \
		$(filter-out %.h,$^) $(LDLIBS)

check: deps-check
	@$(MAKE) --no-print-directory $(PROG) $(UNIT_BIN) $(GMIME_DUMP) $(B)/cp-synth
	@PERFSIFT_BUILD=$(CURDIR)/$(B) PERFSIFT=$(CURDIR)/$(PROG) tests/run-all.sh

deps-check:
	@scripts/deps.sh check

# The GMime reference of the mail decoder's differential test
# (tests/t1400-mail-gmime.sh): built for the tests only, never linked
# into perfsift, and without the sanitizers (glib's caches look leaked).
GMIME_DUMP := $(B)/tests/gmime-dump
$(GMIME_DUMP): tests/mail-ref/gmime-dump.c
	@mkdir -p $(dir $@)
	$(QUIET_LD)$(CC) -O2 -g $(WARNINGS) $(if $(filter 1,$(WERROR)),-Werror) \
		-o $@ $< $(shell pkg-config --cflags --libs gmime-3.0)

# intercept_tls_get_addr=0: LeakSanitizer (clang 14's and gcc 12's)
# tracks the dynamic TLS of dlopen()ed libraries through __tls_get_addr,
# and with GMime's glib under LC_ALL=C it recorded a block at 0x1da of
# 16 GiB and its tracer died on it at exit ("Tracer caught signal 11"),
# or not, as the heap lay (t6100's report).  Without the tracking, the
# suite's mail, report and send tests report no leak either.
asan:
	@ASAN_OPTIONS=intercept_tls_get_addr=0$(if $(ASAN_OPTIONS),:$(ASAN_OPTIONS)) \
		$(MAKE) --no-print-directory B=build-asan \
		CC=$(if $(ASAN_CC),$(ASAN_CC),clang) \
		SANITIZE=address,undefined CFLAGS='-O1 -g' check

# make stress: kills at 100 random points, 4 writers and a reader, a full
# disk (tests/stress.sh; a few minutes; docs/reliability.md)
stress: deps-check $(PROG)
	@PERFSIFT=$(CURDIR)/$(PROG) tests/stress.sh

# make sim: the simulation study of compare's decisions, false positives
# and power against lkp's rule and a plain U test (tests/sim/
# significance.py, about a minute); writes docs/statistics-sim.md
sim: $(PROG)
	@PERFSIFT=$(CURDIR)/$(PROG) /usr/bin/python3 tests/sim/significance.py \
		--out docs/statistics-sim.md

update-golden: $(PROG)
	@PERFSIFT_BUILD=$(CURDIR)/$(B) PERFSIFT=$(CURDIR)/$(PROG) UPDATE_GOLDEN=1 tests/run-all.sh

demo: deps-demo $(PROG)
	@scripts/demo.sh

deps-demo:
	@scripts/deps.sh demo

bench: deps-check $(PROG)
	@$(MAKE) --no-print-directory $(B)/bench-stats $(B)/bench-jansson \
		$(B)/cp-synth $(B)/bench-store
	@PERFSIFT=$(CURDIR)/$(PROG) BENCH_STATS=$(CURDIR)/$(B)/bench-stats \
		BENCH_JANSSON=$(CURDIR)/$(B)/bench-jansson \
		BENCH_STORE=$(CURDIR)/$(B)/bench-store \
		BENCH_TSV=$${BENCH_TSV:-$(CURDIR)/$(B)/bench.tsv} \
		CP_SYNTH=$(CURDIR)/$(B)/cp-synth scripts/bench.sh

$(B)/bench-jansson: tests/bench-jansson.c
	$(QUIET_LD)$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(B)/bench-stats: tests/bench-stats.c tests/xorshift.h $(B)/libperfsift.a
	$(QUIET_LD)$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ \
		$(filter-out %.h,$^) $(LDLIBS)

# make cp-synth: precision and recall of the change-point modes on
# seeded series with planted steps (tests/cp-synth.c, about a minute);
# docs/changepoints.md keeps the latest table.  make check runs the
# --quick version (tests/t5030-cp-synth.sh).
cp-synth: $(B)/cp-synth
	@$(B)/cp-synth

$(B)/cp-synth: tests/cp-synth.c tests/xorshift.h $(B)/libperfsift.a
	$(QUIET_LD)$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ \
		$(filter-out %.h,$^) $(LDLIBS)

$(B)/bench-store: tests/bench-store.c $(B)/libperfsift.a
	$(QUIET_LD)$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

clean:
	rm -rf build build-asan perfsift $(SCHEMA_PG)

.PHONY: all check asan demo bench stress sim cp-synth clean update-golden deps-build deps-check deps-demo
.DELETE_ON_ERROR:

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d)

# libFuzzer builds of tests/fuzz/fuzz-import.c, fuzz-mail.c and
# fuzz-mmtests.c (clang);
# run one with build-fuzz/fuzz-import -max_total_time=60 CORPUS_DIR (e.g.
# copies of tests/data/*/*/input)
FUZZERS := fuzz-import fuzz-mail fuzz-mmtests
fuzz:
	@$(MAKE) --no-print-directory B=build-fuzz CC=clang \
		SANITIZE=fuzzer-no-link,address,undefined CFLAGS='-O1 -g' \
		build-fuzz/libperfsift.a
	$(QUIET_LD)for f in $(FUZZERS); do \
		clang -O1 -g -fsanitize=fuzzer,address,undefined $(CPPFLAGS) \
		-o build-fuzz/$$f tests/fuzz/$$f.c \
		build-fuzz/libperfsift.a $(LDLIBS) || exit 1; done

# make fuzz-run [FUZZ_SECONDS=N]: build, assemble the seed corpus
# (scripts/fuzz-corpus.sh: tests/data, tests/fixtures/mail and
# ../shared/samples) and run each fuzzer for N seconds (60); a crash fails
# the target and leaves its input as build-fuzz/crash-*: make it a
# tests/data case (fuzz-import) or a tests/unit/t-mail.c case (fuzz-mail).
FUZZ_SECONDS ?= 60
fuzz-run: fuzz
	@scripts/fuzz-corpus.sh build-fuzz/seeds
	for f in $(FUZZERS); do mkdir -p build-fuzz/corpus-$$f && \
		build-fuzz/$$f -max_total_time=$(FUZZ_SECONDS) \
		-rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix=build-fuzz/ \
		build-fuzz/corpus-$$f build-fuzz/seeds || exit 1; done

.PHONY: fuzz fuzz-run
