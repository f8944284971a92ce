# SPDX-License-Identifier: GPL-2.0
#
# mrc top-level Makefile.
#
#   make            build mrc.ko (W=1) against KDIR
#   make setup      install build/test dependencies from Debian (idempotent)
#   make check      setup + module + host unit tests + sim + VM selftests  (the test command)
#   make demo       setup + module + boot the VM and show mrc at work (the demo command)
#   make unit       host unit tests: protocol core and verbs provider (ASan/UBSan)
#   make sim        fabric simulator: failover and congestion scenarios of the core (in check)
#   make sim-seeds  the simulator's matrix on SEEDS (8) other draws of the fabric (not in check)
#   make userspace  build the rdma-core provider libmrcdv.so.1, mrcctl (and the test tools)
#   make lint       clang-format + clang-tidy on the userspace C++; netlink spec and generated files
#   make vm-test    VM selftests only (TESTS="multipath.sh ..." for some, CASES="..." of theirs)
#   make bench      benchmark: perftest over rxe and mrc in one VM, with ratios
#   make soak       the soaks at full length (flapping fabric, MPI job through flaps and a hot
#                   swap, TCP baseline beside it), every size of each perftest latency tool and
#                   the reported 256-EV rate rows; CI runs them bounded. SOAK_TESTS picks some
#   make install    install mrc.ko, the verbs provider and mrcctl on this host (DESTDIR and
#                   INSTALL_MOD_PATH stage them elsewhere; make uninstall removes them);
#                   make install-check checks both
#   make check-debug  every VM selftest on a KASAN/lockdep/kmemleak/UBSAN kernel built
#                     from linux-source-6.1 (built once into build/debug-kernel; long)

TOP := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
BUILD ?= $(TOP)/build

# The running kernel's build dir when there is one (a real host), else the
# newest installed Debian headers (the kernel the VM boots).
KDIR ?= $(firstword $(wildcard /lib/modules/$(shell uname -r)/build) \
		    $(lastword $(sort $(wildcard /lib/modules/*/build))))
# The release the headers in KDIR are for, as `uname -r` prints it: Debian's headers say
# 6.1.0-57-amd64 there while their `make kernelrelease` says 6.1.192.
KVER = $(shell sed -n 's/^\#define UTS_RELEASE "\(.*\)"$$/\1/p' $(KDIR)/include/generated/utsrelease.h)

MODULE := drivers/infiniband/sw/mrc/mrc.ko

# The verbs provider, which is also the library of the direct verbs (mrcdv.h): built without
# sanitizers (libibverbs dlopens it into ordinary programs), installed in the system's library
# directory with a link where Debian's libibverbs looks for providers.
USERSPACE_BUILD := $(BUILD)/userspace
PROVIDER := $(USERSPACE_BUILD)/userspace/provider/libmrcdv.so.1
MRCCTL := $(USERSPACE_BUILD)/userspace/mrcctl/mrcctl
SBINDIR ?= /usr/local/sbin
MANDIR ?= /usr/local/share/man
MULTIARCH := $(shell gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
LIBDIR ?= /usr/lib/$(MULTIARCH)
INCLUDEDIR ?= /usr/include
VERBS_PROVIDER_DIR ?= $(LIBDIR)/libibverbs
VERBS_CONFIG_DIR ?= /etc/libibverbs.d
CMAKE_DEPS := -DMRC_DEPS_DIR=$(BUILD)/deps

.PHONY: all modules setup check demo vm-demo bench unit userspace lint vm-test sparse install \
	uninstall install-check clean help \
	debug-kernel debug-modules check-debug sim sim-seeds soak

all: modules

help:
	@sed -n '3,17p' $(TOP)/Makefile

setup:
	@$(TOP)/scripts/setup.sh $(BUILD)

# W=1 and warnings are errors: the module must build warning-free.
modules:
	@test -n "$(KDIR)" || { echo "no kernel headers: run 'make setup'" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(TOP) W=1 KCFLAGS=-Werror modules

sparse:
	@mkdir -p $(BUILD)
	$(MAKE) -C $(KDIR) M=$(TOP) C=2 CF="-D__CHECK_ENDIAN__" modules 2>&1 | \
		tee $(BUILD)/sparse.log
	@! grep -E "warning|error" $(BUILD)/sparse.log

unit:
	cmake -S $(TOP) -B $(BUILD)/unit -G Ninja $(CMAKE_DEPS)
	ninja -C $(BUILD)/unit
	ctest --test-dir $(BUILD)/unit --output-on-failure

userspace:
	cmake -S $(TOP) -B $(USERSPACE_BUILD) -G Ninja $(CMAKE_DEPS) -DMRC_SANITIZE=OFF \
		-DCMAKE_BUILD_TYPE=RelWithDebInfo
	ninja -C $(USERSPACE_BUILD) userspace

# userspace C++ honours the repo's .clang-format and .clang-tidy; the files
# generated from the netlink spec must be what the spec generates now
lint: unit
	ninja -C $(BUILD)/unit format-check tidy
	/usr/bin/python3 $(TOP)/scripts/mrc_nl_spec.py check $(TOP)/Documentation/netlink/specs/mrc.yaml
	/usr/bin/python3 $(TOP)/tests/spec/test_mrc_nl_spec.py
	/usr/bin/python3 $(TOP)/scripts/mrc_nl_gen.py check
	/usr/bin/python3 $(TOP)/tests/spec/test_mrc_nl_gen.py

vm-test: modules userspace
	MRC_USERSPACE_BUILD=$(USERSPACE_BUILD) $(TOP)/selftests/vm/run.sh --build $(BUILD) --kdir $(KDIR) --tests \
		$(if $(TESTS),--only "$(TESTS)") $(if $(CASES),--cases "$(CASES)")

# The flapping-fabric job's table and plot (build/flapjob.png) come from the VM's log, also
# when a soak failed.
SOAK_TESTS ?= multipath_churn.sh mpi_flap.sh perftest.sh multipath_rate.sh
FLAP_PLOT := $(USERSPACE_BUILD)/userspace/jobs/mrc_flap_plot
soak: modules userspace
	MRC_USERSPACE_BUILD=$(USERSPACE_BUILD) $(TOP)/selftests/vm/run.sh --build $(BUILD) --kdir $(KDIR) --tests \
		--soak --only "$(SOAK_TESTS)" $(if $(CASES),--cases "$(CASES)"); status=$$?; \
	$(if $(filter mpi_flap.sh,$(SOAK_TESTS)),$(FLAP_PLOT) $(BUILD)/vm/serial-tests.log $(BUILD)/flapjob.png;) \
	exit $$status

# setup may install the kernel headers, so KDIR is found by a fresh make
demo: setup
	$(MAKE) -C $(TOP) modules
	$(MAKE) -C $(TOP) vm-demo

# Not a test: rxe vs mrc perftest table (selftests/bench.sh)
# The fabric simulator: the core's requester and responder on simulated spines (tests/sim).
# Optimised and without sanitizers (the unit tests run the same core under ASan/UBSan).
SIM_BUILD := $(BUILD)/sim
sim:
	cmake -S $(TOP) -B $(SIM_BUILD) -G Ninja $(CMAKE_DEPS) -DMRC_SANITIZE=OFF \
		-DCMAKE_BUILD_TYPE=Release
	ninja -C $(SIM_BUILD) mrc_sim
	$(SIM_BUILD)/tests/sim/mrc_sim --xfail $(TOP)/tests/sim/expected_failures.txt \
		--plot $(SIM_BUILD)/failover.png

# The matrix on SEEDS other draws of the fabric: which scenarios pass by one seed's luck.
SEEDS ?= 8
sim-seeds:
	cmake -S $(TOP) -B $(SIM_BUILD) -G Ninja $(CMAKE_DEPS) -DMRC_SANITIZE=OFF \
		-DCMAKE_BUILD_TYPE=Release
	ninja -C $(SIM_BUILD) mrc_sim
	$(TOP)/tests/sim/seeds.sh $(SIM_BUILD)/tests/sim/mrc_sim $(SEEDS)

bench: modules userspace
	MRC_USERSPACE_BUILD=$(USERSPACE_BUILD) $(TOP)/selftests/vm/run.sh --build $(BUILD) --kdir $(KDIR) --bench

vm-demo: modules userspace
	MRC_USERSPACE_BUILD=$(USERSPACE_BUILD) $(TOP)/selftests/vm/run.sh --build $(BUILD) --kdir $(KDIR) --demo

check: setup
	$(MAKE) -C $(TOP) modules
	$(MAKE) -C $(TOP) sparse
	$(MAKE) -C $(TOP) unit
	$(MAKE) -C $(TOP) sim
	$(MAKE) -C $(TOP) lint
	$(MAKE) -C $(TOP) install-check
	$(MAKE) -C $(TOP) vm-test

# The debug kernel and an mrc.ko built against it, from a copy of the module's
# sources so that the mrc.ko of the stock kernel stays where it is; that mrc.ko
# has the race windows the selftests open (mrc_race.h).
DEBUG_BUILD := $(BUILD)/debug-kernel
DEBUG_KDIR := $(DEBUG_BUILD)/linux
DEBUG_MOD_SRC := $(DEBUG_BUILD)/mrc

debug-kernel:
	@$(TOP)/scripts/debug-kernel.sh $(BUILD)

debug-modules: debug-kernel
	rm -rf $(DEBUG_MOD_SRC)
	mkdir -p $(DEBUG_MOD_SRC)
	tar -C $(TOP) --exclude='*.o' --exclude='*.ko' --exclude='*.cmd' --exclude='*.mod*' \
		-cf - Kbuild drivers include | tar -C $(DEBUG_MOD_SRC) -xf -
	$(MAKE) -C $(DEBUG_KDIR) M=$(DEBUG_MOD_SRC) W=1 KCFLAGS=-Werror MRC_RACE_WINDOWS=y modules

# Every VM selftest on the debug kernel; any KASAN, KFENCE, lockdep, UBSAN,
# atomic-sleep or kmemleak report fails the run (selftests/vm/run.sh).
check-debug: debug-modules userspace
	MRC_USERSPACE_BUILD=$(USERSPACE_BUILD) $(TOP)/selftests/vm/run.sh --build $(DEBUG_BUILD) \
		--kdir $(DEBUG_KDIR) --module $(DEBUG_MOD_SRC)/drivers/infiniband/sw/mrc/mrc.ko \
		--tests --timeout 14400 $(if $(TESTS),--only "$(TESTS)") $(if $(CASES),--cases "$(CASES)")

# DESTDIR stages the userspace files, INSTALL_MOD_PATH the module (both empty: this host).
install: modules userspace
	@[ -n "$(KVER)" ] || { echo "install: no kernel release in $(KDIR)" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(TOP) KERNELRELEASE=$(KVER) INSTALL_MOD_PATH=$(INSTALL_MOD_PATH) \
		DEPMOD=true modules_install
	depmod -a $(if $(INSTALL_MOD_PATH),-b $(INSTALL_MOD_PATH)) $(KVER)
	install -D -m 0644 $(PROVIDER) $(DESTDIR)$(LIBDIR)/libmrcdv.so.1
	ln -sf libmrcdv.so.1 $(DESTDIR)$(LIBDIR)/libmrcdv.so
	install -d $(DESTDIR)$(VERBS_PROVIDER_DIR)
	ln -sf $(shell realpath -s -m --relative-to=$(VERBS_PROVIDER_DIR) $(LIBDIR))/libmrcdv.so.1 \
		$(DESTDIR)$(VERBS_PROVIDER_DIR)/libmrc-rdmav34.so
	install -D -m 0644 $(TOP)/userspace/provider/include/infiniband/mrcdv.h \
		$(DESTDIR)$(INCLUDEDIR)/infiniband/mrcdv.h
	[ -n "$(DESTDIR)" ] || ldconfig
	install -D -m 0644 $(TOP)/userspace/provider/mrc.driver $(DESTDIR)$(VERBS_CONFIG_DIR)/mrc.driver
	install -D -m 0755 $(MRCCTL) $(DESTDIR)$(SBINDIR)/mrcctl
	install -D -m 0644 $(TOP)/userspace/mrcctl/mrcctl.8 $(DESTDIR)$(MANDIR)/man8/mrcctl.8

# What install put there, and nothing else (the module's index is rebuilt without it).
uninstall:
	@[ -n "$(KVER)" ] || { echo "uninstall: no kernel release in $(KDIR)" >&2; exit 1; }
	rm -f $(INSTALL_MOD_PATH)/lib/modules/$(KVER)/extra/$(MODULE)
	-rmdir -p --ignore-fail-on-non-empty $(INSTALL_MOD_PATH)/lib/modules/$(KVER)/extra/$(dir $(MODULE))
	depmod -a $(if $(INSTALL_MOD_PATH),-b $(INSTALL_MOD_PATH)) $(KVER)
	rm -f $(DESTDIR)$(LIBDIR)/libmrcdv.so.1 $(DESTDIR)$(LIBDIR)/libmrcdv.so \
		$(DESTDIR)$(VERBS_PROVIDER_DIR)/libmrc-rdmav34.so \
		$(DESTDIR)$(INCLUDEDIR)/infiniband/mrcdv.h $(DESTDIR)$(VERBS_CONFIG_DIR)/mrc.driver \
		$(DESTDIR)$(SBINDIR)/mrcctl $(DESTDIR)$(MANDIR)/man8/mrcctl.8
	[ -n "$(DESTDIR)" ] || ldconfig

# make install staged into a scratch root and checked, then make uninstall (in make check).
install-check: modules userspace
	$(TOP)/scripts/check-install.sh $(KVER)

clean:
	$(MAKE) -C $(KDIR) M=$(TOP) clean
	rm -rf $(BUILD)/unit $(BUILD)/userspace $(BUILD)/vm
