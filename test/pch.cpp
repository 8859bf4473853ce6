// Empty: the translation unit that builds the tests' shared precompiled header (CMakeLists.txt).
