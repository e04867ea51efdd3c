# SPDX-License-Identifier: GPL-2.0
# fsblock for Linux 6.12: the series, its KUnit suites and the integration boot.
#
#   make integration   build the integration kernel and run the scenarios
#   make test          check + kunit + integration on the fsblock, the
#                      no-buffer_head and the stock kernel (what CI runs)
#   make soak          the long runs (not in CI)
#   make bench         fsblock against stock 6.12, side by side (not in CI)
#   make bench-profile where make bench's differences come from (not in CI)
#
# Build products go to $(BUILD), outside the clone by default, so that a
# fresh clone reuses the tree, the objects and ccache; logs go to $(LOGS).
# deps and tree run once per make invocation, as prerequisites; the
# scripts then skip them (FSB_SETUP_DONE).

BUILD ?= /var/tmp/fsblock-build
LOGS  ?= $(CURDIR)/out
export BUILD LOGS
RUN = FSB_SETUP_DONE=1

.PHONY: help deps tree export kunit integration integration-nobh integration-stock integration-all \
	check test soak bench bench-profile clean harness-selftest

help:
	@echo "make integration  build the integration kernel, boot it, run every scenario"
	@echo "make test         make check, the KUnit suites and integration-all (what CI runs)"
	@echo "make soak         the long runs: fsbx and byte flips on the debug and the fast kernel"
	@echo "make bench        fsblock against stock 6.12: alternate boots, a table and a plot of the ratios"
	@echo "make bench-profile  where the time and the bytes go: function profiles and slab growth of both kernels"
	@echo "make integration-nobh   the scenarios on the kernel without buffer_heads"
	@echo "make integration-stock  the scenarios on stock 6.12 (no series)"
	@echo "make integration-all    the three kernels, each booted as soon as it is built (as make test)"
	@echo "make harness-selftest   planted faults must fail the integration run"
	@echo "make deps         install missing Debian packages"
	@echo "make tree         the kernel tree in $(BUILD)/linux: Debian's 6.12 + the series"
	@echo "make export       write the tree's commits back to patches/"
	@echo "make kunit        ./run_kunit.sh (ARGS='fsblock_layout' passes arguments on)"
	@echo "make check        checkpatch and a bisect build of the series"
	@echo "make clean        remove build products (keeps the tree and ccache)"

deps:
	@bash scripts/deps.sh

tree: deps
	@bash scripts/tree.sh

export:
	@bash scripts/export.sh

kunit: tree
	@$(RUN) ./run_kunit.sh $(ARGS)

integration: tree
	@$(RUN) KERNELS=integration bash qemu-integration/run.sh

integration-nobh: tree
	@$(RUN) KERNELS=nobh bash qemu-integration/run.sh

integration-stock: tree
	@$(RUN) KERNELS=stock bash qemu-integration/run.sh

integration-all: tree
	@$(RUN) KERNELS="integration nobh stock" bash qemu-integration/run.sh

check: tree
	@$(RUN) bash scripts/check.sh

test: tree
	@$(RUN) bash scripts/test.sh

soak: tree
	@$(RUN) bash scripts/soak.sh

bench: tree
	@$(RUN) bash scripts/bench.sh

bench-profile: tree
	@$(RUN) bash scripts/bench-profile.sh

harness-selftest: tree
	@$(RUN) bash scripts/selftest.sh

clean:
	rm -rf $(BUILD)/kunit $(BUILD)/int-* $(BUILD)/docs $(BUILD)/check.config $(BUILD)/check-ok $(LOGS)
