// A small RGB canvas that writes itself as a PNG (stored deflate blocks: no zlib needed),
// enough for the simulator's rate curves and the flapping-fabric job's step times.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mrc::plot {

struct Rgb {
    uint8_t r, g, b;
};

class Canvas {
public:
    Canvas(uint32_t width, uint32_t height, Rgb background);

    void pixel(int x, int y, Rgb c);
    void line(int x0, int y0, int x1, int y1, Rgb c);
    // a SIZE x SIZE square, its top left at (x, y)
    void block(int x, int y, int size, Rgb c);
    // TEXT in a 3x5 font drawn SCALE times larger, its top left at (x, y): digits, lower-case
    // letters and " .:-=/%"; other characters are left blank
    void text(int x, int y, std::string_view text, Rgb c, int scale = 2);
    static constexpr int kGlyphWidth = 4; // a glyph and its gap, before scaling
    [[nodiscard]] uint32_t width() const { return width_; }
    [[nodiscard]] uint32_t height() const { return height_; }
    // false when the file cannot be written
    [[nodiscard]] bool write_png(const std::string &path) const;

private:
    uint32_t width_;
    uint32_t height_;
    std::vector<uint8_t> rgb_;
};

} // namespace mrc::plot
