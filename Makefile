# Thin wrapper around CMake.
#   make bench   builds and runs the demo suite (the main job) and writes its
#                HTML report to $(BUILD)/femtobench-demo.html
#   make test    installs the test tools if missing, builds, runs every test
BUILD ?= build
CMAKE ?= cmake
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
# Debian packages the tests use: Google's compare.py (+ scipy), pkg-config,
# headless Chromium for the HTML report's browser test, and valgrind (its
# callgrind.h makes -valgrind available; the build picks it up when configured).
TEST_PACKAGES = libbenchmark-tools python3-scipy pkg-config chromium valgrind

.PHONY: all bench test deps clean configure

all: configure
	$(CMAKE) --build $(BUILD) -j $(JOBS)

configure:
	@test -f $(BUILD)/CMakeCache.txt || $(CMAKE) -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release

bench: all
	./$(BUILD)/bench/femtobench-demo -output_html=$(BUILD)/femtobench-demo.html

deps:
	@dpkg -s $(TEST_PACKAGES) >/dev/null 2>&1 || { \
	  echo "installing $(TEST_PACKAGES)"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq $(TEST_PACKAGES) >/dev/null; }

test: deps all
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

clean:
	rm -rf $(BUILD)
