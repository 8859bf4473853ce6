# What every CTest entry of the project gets (after cmake/HaloSanitize.cmake):
#  * a TIMEOUT: the given seconds, times HALO_TEST_TIMEOUT_SCALE in sanitized builds;
#  * in sanitized builds, the sanitizers' environment (HALO_SANITIZER_ENV), and failure on any
#    sanitizer report in the output, even one from a child process whose exit code is lost.
# No test uses PASS_REGULAR_EXPRESSION (it makes CTest ignore the exit code): a test passes
# when its program exits with 0; test/expect_output.sh also requires an expected output.

set(HALO_TEST_TIMEOUT_SCALE 1)
set(HALO_SANITIZER_REPORT_REGEX "")
if(HALO_SANITIZE)
  set(HALO_TEST_TIMEOUT_SCALE 4)
  set(HALO_SANITIZER_REPORT_REGEX
      "ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error: |WARNING: ThreadSanitizer")
endif()

# halo_test_properties(<var> TIMEOUT <seconds> [FAIL_REGULAR_EXPRESSION <regex>]
#                      [ENVIRONMENT VAR=value...])
# Sets <var> to the property list (name value ...) for such tests. Given no ENVIRONMENT, every
# value is a single list element, so the list also works as doctest_discover_tests' PROPERTIES.
function(halo_test_properties var)
  cmake_parse_arguments(ARG "" "TIMEOUT;FAIL_REGULAR_EXPRESSION" "ENVIRONMENT" ${ARGN})
  if(NOT ARG_TIMEOUT)
    message(FATAL_ERROR "halo_test_properties: TIMEOUT <seconds> is required")
  endif()
  math(EXPR timeout "${ARG_TIMEOUT} * ${HALO_TEST_TIMEOUT_SCALE}")
  set(props TIMEOUT ${timeout})
  set(fail ${ARG_FAIL_REGULAR_EXPRESSION} ${HALO_SANITIZER_REPORT_REGEX})
  list(JOIN fail "|" fail)
  if(fail)
    list(APPEND props FAIL_REGULAR_EXPRESSION "${fail}")
  endif()
  set(env ${ARG_ENVIRONMENT} ${HALO_SANITIZER_ENV})
  if(env)
    string(REPLACE ";" "\\;" env "${env}")  # one list element: VAR=value\;VAR=value
    list(APPEND props ENVIRONMENT "${env}")
  endif()
  set(${var} "${props}" PARENT_SCOPE)
endfunction()

# halo_set_test_properties(<test> TIMEOUT <seconds> [FAIL_REGULAR_EXPRESSION <regex>]
#                          [ENVIRONMENT VAR=value...])
function(halo_set_test_properties name)
  halo_test_properties(props ${ARGN})
  set_tests_properties("${name}" PROPERTIES ${props})
endfunction()
