# kopt — build, test, demo. `make help` lists targets.
PKGS      := libmicrohttpd jansson libcurl libuv libpq openssl inih
CC        ?= cc
CSTD      := -std=gnu11
WARN      := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wno-unused-parameter
# pkg-config is read the first time a recipe needs the flags, not when the Makefile is
# parsed: `make demo` / `make test` run `make deps` first, and on a fresh machine the -dev
# packages (and their .pc files) exist only after that. Each is evaluated once, then kept.
PKG_CFLAGS = $(eval PKG_CFLAGS := $$(shell pkg-config --cflags $(PKGS) 2>/dev/null))$(PKG_CFLAGS)
PKG_LIBS   = $(eval PKG_LIBS := $$(shell pkg-config --libs $(PKGS) 2>/dev/null))$(PKG_LIBS)
# The install step; tests replace it to prove the build reads flags only after it.
DEPS_CMD  ?= bash scripts/deps.sh
VERSION   := $(shell git describe --always --dirty 2>/dev/null || echo 0.1.0)

BUILD     ?= build/release
BIN       ?= bin
OPT       ?= -O2 -g
SAN       ?=
XINC      ?=
CFLAGS_ALL = $(CSTD) $(WARN) $(OPT) $(SAN) -D_GNU_SOURCE \
             -Icommon -Idaemon -Iapi -Iworkers $(XINC) $(PKG_CFLAGS)
LDFLAGS_ALL = $(SAN) -Wl,--as-needed $(PKG_LIBS) -lpthread -lm

COMMON_SRC := $(wildcard common/*.c)
GEN_MIGR   := $(BUILD)/gen/migrations_data.c
DAEMON_SRC := $(filter-out daemon/main.c,$(wildcard daemon/*.c)) $(wildcard api/*.c)
WORKER_SRC := $(filter-out workers/worker_main.c,$(wildcard workers/*.c))
CLI_SRC    := $(wildcard cli/*.c)

obj = $(patsubst %.c,$(BUILD)/%.o,$(1))

.PHONY: FORCE all asan deps demo demo-stop test test-unit test-integration bench clean help fuzz-bins fuzz-bins-here fuzz

all: $(BIN)/koptd $(BIN)/koptctl $(if $(wildcard workers/worker_main.c),$(BIN)/kopt-worker)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -MMD -MP -c $< -o $@

$(GEN_MIGR): $(sort $(wildcard migrations/*.sql)) scripts/embed_migrations.sh
	@mkdir -p $(dir $@)
	bash scripts/embed_migrations.sh $@ $(sort $(wildcard migrations/*.sql))

$(BUILD)/gen/migrations_data.o: $(GEN_MIGR)
	$(CC) $(CFLAGS_ALL) -c $< -o $@

$(BUILD)/gen/openapi_data.c: api/openapi.json scripts/embed_file.sh
	@mkdir -p $(dir $@)
	bash scripts/embed_file.sh $@ api_openapi_json api/openapi.json

$(BUILD)/gen/openapi_data.o: $(BUILD)/gen/openapi_data.c
	$(CC) $(CFLAGS_ALL) -c $< -o $@

$(BUILD)/gen/dashboard_data.c: api/dashboard.html scripts/embed_file.sh
	@mkdir -p $(dir $@)
	bash scripts/embed_file.sh $@ api_dashboard_html api/dashboard.html

$(BUILD)/gen/dashboard_data.o: $(BUILD)/gen/dashboard_data.c
	$(CC) $(CFLAGS_ALL) -c $< -o $@

$(BUILD)/gen/prompt_template_data.c: workers/prompt_template.md scripts/embed_file.sh
	@mkdir -p $(dir $@)
	bash scripts/embed_file.sh $@ prompt_template_md workers/prompt_template.md

$(BUILD)/gen/prompt_template_data.o: $(BUILD)/gen/prompt_template_data.c
	$(CC) $(CFLAGS_ALL) -c $< -o $@

$(BUILD)/gen/passes_tsv_data.c: workers/passes.tsv scripts/embed_file.sh
	@mkdir -p $(dir $@)
	bash scripts/embed_file.sh $@ kopt_passes_tsv workers/passes.tsv

$(BUILD)/gen/passes_tsv_data.o: $(BUILD)/gen/passes_tsv_data.c
	$(CC) $(CFLAGS_ALL) -c $< -o $@

# The dashboard's scripts and styles (api/ui/NAME.EXT -> symbol api_ui_NAME_EXT, api/api_ui.c).
UI_ASSETS := api/ui/kopt.js api/ui/kopt.css
UI_OBJ    := $(patsubst api/ui/%,$(BUILD)/gen/ui_%.o,$(UI_ASSETS))

$(BUILD)/gen/ui_%.c: api/ui/% scripts/embed_file.sh
	@mkdir -p $(dir $@)
	bash scripts/embed_file.sh $@ api_ui_$(subst .,_,$*) $<

$(BUILD)/gen/ui_%.o: $(BUILD)/gen/ui_%.c
	$(CC) $(CFLAGS_ALL) -c $< -o $@

# The version string lives in one generated file, rewritten only when `git describe` changes:
# as a -D flag it reached only the objects make happened to rebuild, and a koptd built after a
# commit that touched no daemon file reported the commit before it.
VERSION_OBJ := $(BUILD)/gen/version.o
$(BUILD)/gen/version.c: FORCE
	@mkdir -p $(dir $@)
	@printf '#include "version.h"\nconst char kopt_version[] = "%s";\n' '$(VERSION)' > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

$(VERSION_OBJ): $(BUILD)/gen/version.c
	$(CC) $(CFLAGS_ALL) -c $< -o $@

FORCE:

GEN_OBJ := $(VERSION_OBJ) $(BUILD)/gen/migrations_data.o $(BUILD)/gen/openapi_data.o $(BUILD)/gen/dashboard_data.o \
           $(BUILD)/gen/prompt_template_data.o $(BUILD)/gen/passes_tsv_data.o $(UI_OBJ)

$(BIN)/koptd: $(call obj,daemon/main.c $(DAEMON_SRC) $(COMMON_SRC)) $(GEN_OBJ)
	@mkdir -p $(BIN)
	$(CC) -o $@ $^ $(LDFLAGS_ALL)

$(BIN)/kopt-worker: $(call obj,workers/worker_main.c $(WORKER_SRC) $(COMMON_SRC)) \
                   $(BUILD)/gen/prompt_template_data.o $(BUILD)/gen/passes_tsv_data.o $(VERSION_OBJ)
	@mkdir -p $(BIN)
	$(CC) -o $@ $^ $(LDFLAGS_ALL)

$(BIN)/koptctl: $(call obj,$(CLI_SRC) $(COMMON_SRC)) $(VERSION_OBJ)
	@mkdir -p $(BIN)
	$(CC) -o $@ $^ $(LDFLAGS_ALL)

# Unit tests (cmocka): one binary per tests/unit/test_*.c, linked with daemon modules and
# tests/unit/support/ctx_clock.c (koptd's clocks, weak: a test may define its own).
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(patsubst tests/unit/%.c,$(BIN)/tests/%,$(UNIT_SRC))
$(BIN)/tests/%: $(call obj,tests/unit/%.c tests/unit/support/ctx_clock.c $(DAEMON_SRC) $(WORKER_SRC) $(COMMON_SRC)) \
                  $(GEN_OBJ)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^ $(LDFLAGS_ALL) -lcmocka
unit-bins: $(UNIT_BIN)
.SECONDARY: $(call obj,tests/unit/support/ctx_clock.c)

# ASan + UBSan build of the same sources, in its own tree.
asan:
	$(MAKE) all unit-bins BUILD=build/asan BIN=bin/asan OPT='-O1 -g -fno-omit-frame-pointer' \
	  SAN='-fsanitize=address,undefined -fno-sanitize-recover=undefined'

# libFuzzer targets (clang): one binary per tests/fuzz/fuzz_*.c, linked with the real modules
# (daemon, api, worker, common, and koptctl's SSE parser), in their own tree. Objects get
# coverage instrumentation (fuzzer-no-link); the link adds libFuzzer's main.
FUZZ_CC      ?= clang
FUZZ_SRC     := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BIN     := $(patsubst tests/fuzz/%.c,$(BIN)/%,$(FUZZ_SRC))
FUZZ_SECONDS ?= 60
$(BIN)/fuzz_%: $(call obj,tests/fuzz/fuzz_%.c tests/fuzz/ctx_unused.c $(DAEMON_SRC) $(WORKER_SRC) $(COMMON_SRC) cli/ctl_sse.c) \
               $(GEN_OBJ)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^ -fsanitize=fuzzer $(LDFLAGS_ALL)
# Kept, not deleted as intermediates, so that a second make-fuzz-bins links nothing.
.SECONDARY: $(call obj,$(FUZZ_SRC) tests/fuzz/ctx_unused.c)
fuzz-bins-here: $(FUZZ_BIN)
fuzz-bins:
	$(MAKE) fuzz-bins-here BUILD=build/fuzz BIN=bin/fuzz CC=$(FUZZ_CC) \
	  OPT='-O1 -g -fno-omit-frame-pointer' XINC=-Icli \
	  SAN='-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined'

# Every target for FUZZ_SECONDS, one at a time; prints executions per target and the total.
fuzz: fuzz-bins
	bash scripts/fuzz.sh $(FUZZ_SECONDS)

deps:
	@$(DEPS_CMD) >/dev/null

# The build is a second make, so that it starts after deps even under -j.
demo: deps
	$(MAKE) all
	bash scripts/demo.sh

demo-stop:
	bash scripts/demo.sh stop

test: deps
	bash scripts/test.sh

test-unit: all unit-bins
	bash scripts/test.sh unit

test-integration: all
	bash scripts/test.sh integration

bench: deps
	$(MAKE) all
	bash bench/api_bench.sh

clean:
	rm -rf build bin

help:
	@echo "make deps | all | asan | demo | demo-stop | test | test-unit | test-integration | bench | fuzz-bins | fuzz [FUZZ_SECONDS=60] | clean"

-include $(shell find build -name '*.d' 2>/dev/null)
