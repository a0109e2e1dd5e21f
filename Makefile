# Thin wrapper around CMake.
#   make bench   builds the library and the demo suite, nothing else (not the
#                tests), runs the demo (the main job) and writes its HTML
#                report to $(BUILD)/femtobench-demo.html; it prints the
#                build's warnings and errors and the results, not the build's log
#   make test    installs the test tools if missing, builds, runs the unit and
#                cli tests (ctest -L 'unit|cli'); the build tier (single header,
#                install, strict flags: ctest -L build) runs in .ci/run
BUILD ?= build
CMAKE ?= cmake
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
# Debian packages the tests use: Google's compare.py (+ scipy), pkg-config,
# headless Chromium for the HTML report's browser test, and valgrind (its
# callgrind.h makes -valgrind available; the build picks it up when configured).
TEST_PACKAGES = libbenchmark-tools python3-scipy pkg-config chromium valgrind

.PHONY: all bench test deps clean configure

# cmake --build runs make again: without this every sub-make prints
# "Entering directory" lines.
MAKEFLAGS += --no-print-directory

all: configure
	$(CMAKE) --build $(BUILD) -j $(JOBS)

configure:
	@test -f $(BUILD)/CMakeCache.txt || $(CMAKE) -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release

# The build's log is shown when it fails; otherwise only its warnings.
bench:
	@mkdir -p $(BUILD)
	@{ test -f $(BUILD)/CMakeCache.txt || $(CMAKE) -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release; } \
	  >$(BUILD)/bench-build.log 2>&1 && $(CMAKE) --build $(BUILD) -j $(JOBS) --target femtobench-demo \
	  >>$(BUILD)/bench-build.log 2>&1 \
	  || { cat $(BUILD)/bench-build.log; echo "make bench: the build failed (log: $(BUILD)/bench-build.log)"; exit 1; }
	@grep -E -A3 '(warning|error):' $(BUILD)/bench-build.log || true
	./$(BUILD)/bench/femtobench-demo -output_html=$(BUILD)/femtobench-demo.html

deps:
	@dpkg -s $(TEST_PACKAGES) >/dev/null 2>&1 || { \
	  echo "installing $(TEST_PACKAGES)"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq $(TEST_PACKAGES) >/dev/null; }

test: deps all
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) -L 'unit|cli'

clean:
	rm -rf $(BUILD)
