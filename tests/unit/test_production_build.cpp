// The production library carries SASS for every architecture the build asked for (a CMake
// default that came too late once left it at the compiler's sm_75, so the H200 ran it through
// the PTX JIT). No GPU needed.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "csrgat/aggregate.h"

TEST(ProductionBuild, CarriesSassForEveryConfiguredArchitecture) {
  const std::string have = std::string(",") + csrgat::compiled_archs() + ",";
  std::stringstream want(CSRGAT_CUDA_ARCHS);  // CMAKE_CUDA_ARCHITECTURES, e.g. "90" or "90-real;100"
  std::string a;
  int n = 0;
  while (std::getline(want, a, ';')) {
    const std::string digits = a.substr(0, a.find_first_not_of("0123456789"));
    ASSERT_FALSE(digits.empty()) << "architecture entry '" << a << "'";
    EXPECT_NE(have.find("," + digits + "0,"), std::string::npos)
        << "CMAKE_CUDA_ARCHITECTURES has " << a << " but the library was compiled for "
        << csrgat::compiled_archs();
    ++n;
  }
  EXPECT_GT(n, 0);
}
