#include "WeightsFixtures.h"

#include "H5Writer.h"
#include "ModelFixtures.h"

#include <limits>

namespace ckpt::test {

void WeightsFixtures::write(const std::string& fileA, const std::string& fileB)
{
    const auto big = ModelFixtures::values(400, 7);
    const auto small = ModelFixtures::values(12, 8);
    const auto same = ModelFixtures::values(5, 9);
    const auto bias = ModelFixtures::values(3, 10);
    auto bigB = big;
    for (float& v : bigB)
        v *= 3.0f;
    auto smallB = small;
    smallB[0] += 1e-4f * smallB[0];
    auto biasB = bias;
    biasB[1] = std::numeric_limits<float>::quiet_NaN();
    {
        H5Writer a(fileA);
        a.floats("/big/kernel", {20, 20}, big);
        a.floats("/small/kernel", {4, 3}, small);
        a.floats("/same/w", {5}, same);
        a.floats("/nanlayer/bias", {3}, bias);
        a.floats("/onlyA/w", {2}, {1, 2});
    }
    {
        H5Writer b(fileB);
        b.floats("/big/kernel", {20, 20}, bigB);
        b.floats("/small/kernel", {4, 3}, smallB);
        b.floats("/same/w", {5}, same);
        b.floats("/nanlayer/bias", {3}, biasB);
        b.floats("/onlyB/w", {2}, {3, 4});
    }
}

} // namespace ckpt::test
