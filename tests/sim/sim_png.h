// A small RGB canvas that writes itself as a PNG (stored deflate blocks: no zlib needed),
// enough to plot the simulator's rate curves.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mrc::sim {

struct Rgb {
    uint8_t r, g, b;
};

class Canvas {
public:
    Canvas(uint32_t width, uint32_t height, Rgb background);

    void pixel(int x, int y, Rgb c);
    void line(int x0, int y0, int x1, int y1, Rgb c);
    [[nodiscard]] uint32_t width() const { return width_; }
    [[nodiscard]] uint32_t height() const { return height_; }
    // false when the file cannot be written
    [[nodiscard]] bool write_png(const std::string &path) const;

private:
    uint32_t width_;
    uint32_t height_;
    std::vector<uint8_t> rgb_;
};

} // namespace mrc::sim
