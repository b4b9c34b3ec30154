// Entry point of the core doctest suite; the cases live in the other files here.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
