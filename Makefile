# SPDX-License-Identifier: GPL-2.0
# fsblock for Linux 6.12: the series, its KUnit suites and the integration boot.
#
#   make integration   build the integration kernel and run the scenarios
#   make test          check + kunit + integration on the fsblock, the
#                      no-buffer_head and the stock kernel (what CI runs)
#
# Build products go to $(BUILD), outside the clone by default, so that a
# fresh clone reuses the tree, the objects and ccache; logs go to $(LOGS).

BUILD ?= /var/tmp/fsblock-build
LOGS  ?= $(CURDIR)/out
export BUILD LOGS

.PHONY: help deps tree export kunit integration integration-nobh integration-stock integration-all \
	check test clean harness-selftest

help:
	@echo "make integration  build the integration kernel, boot it, run every scenario"
	@echo "make test         make check, the KUnit suites and integration-all"
	@echo "make integration-nobh   the scenarios on the kernel without buffer_heads"
	@echo "make integration-stock  the scenarios on stock 6.12 (no series)"
	@echo "make integration-all    the three kernels, booted at the same time (as make test)"
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

kunit: deps
	@./run_kunit.sh $(ARGS)

integration: deps
	@KERNELS=integration bash qemu-integration/run.sh

integration-nobh: deps
	@KERNELS=nobh bash qemu-integration/run.sh

integration-stock: deps
	@KERNELS=stock bash qemu-integration/run.sh

integration-all: deps
	@KERNELS="integration nobh stock" bash qemu-integration/run.sh

check: deps
	@bash scripts/check.sh

test: deps
	@bash scripts/test.sh

clean:
	rm -rf $(BUILD)/kunit $(BUILD)/int-* $(BUILD)/check.config $(BUILD)/check-ok $(LOGS)

# The integration harness must fail on a damaged filesystem: boot with a
# scenario that corrupts a minix image before fsck, and expect the run to
# fail and name it.
.PHONY: harness-selftest
harness-selftest: deps
	@out=$$(SCENARIO_DIR=$(CURDIR)/qemu-integration/selftest LOGS=$(LOGS)/selftest \
		bash qemu-integration/run.sh 2>&1); rc=$$?; echo "$$out" | tail -25; \
	if [ $$rc -ne 0 ] && echo "$$out" | grep -q 'FAIL fsck-damage' && \
	   echo "$$out" | grep -q 'FAIL fsbx-fault'; then \
		echo "harness-selftest: the damaged image and the injected fsbx fault failed the run, as they must"; \
	else echo "harness-selftest: FAILED: a planted fault was not caught"; exit 1; fi
