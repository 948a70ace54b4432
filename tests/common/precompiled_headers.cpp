// Nothing of its own: the target it builds precompiles the headers every GoogleTest binary
// reuses (tests/CMakeLists.txt, rocewatch_test_pch).
