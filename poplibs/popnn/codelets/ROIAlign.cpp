// The vertices of popnn::experimental's ROIAlign. A region of interest
// [x1, y1, x2, y2] (scaled by spatialScale, less half a pixel when aligned)
// is cut into pooledH x pooledW bins; each bin's value is the mean of
// samplingRatio x samplingRatio points spaced evenly inside it, each point
// interpolated bilinearly from the four pixels around it. A point more
// than a pixel outside the image counts as zero; one less than a pixel
// outside reads the edge. Arithmetic is in float for both types.
#include <poplar/HalfFloat.hpp>
#include <poplar/Vertex.hpp>

#include <cmath>
#include <vector>

namespace popnn {
namespace {

// Where a sample reads the image and with what weights.
struct Bilinear {
  bool inside = false;
  unsigned y0 = 0, y1 = 0, x0 = 0, x1 = 0;
  float w00 = 0, w01 = 0, w10 = 0, w11 = 0;
};

Bilinear bilinear(float y, float x, unsigned height, unsigned width) {
  Bilinear b;
  if (y < -1.0f || y > float(height) || x < -1.0f || x > float(width))
    return b;
  b.inside = true;
  y = std::fmax(y, 0.0f);
  x = std::fmax(x, 0.0f);
  b.y0 = unsigned(y);
  b.x0 = unsigned(x);
  if (b.y0 >= height - 1) {
    b.y0 = b.y1 = height - 1;
    y = float(b.y0);
  } else {
    b.y1 = b.y0 + 1;
  }
  if (b.x0 >= width - 1) {
    b.x0 = b.x1 = width - 1;
    x = float(b.x0);
  } else {
    b.x1 = b.x0 + 1;
  }
  const float ly = y - float(b.y0), lx = x - float(b.x0);
  const float hy = 1.0f - ly, hx = 1.0f - lx;
  b.w00 = hy * hx;
  b.w01 = hy * lx;
  b.w10 = ly * hx;
  b.w11 = ly * lx;
  return b;
}

// The geometry of one region: where its bins and their samples are.
struct Region {
  float startY, startX, binH, binW;
  Region(const float box[4], float scale, bool aligned, unsigned pooledH,
         unsigned pooledW) {
    const float offset = aligned ? 0.5f : 0.0f;
    startX = box[0] * scale - offset;
    startY = box[1] * scale - offset;
    float w = box[2] * scale - offset - startX;
    float h = box[3] * scale - offset - startY;
    if (!aligned) {
      w = std::fmax(w, 1.0f);
      h = std::fmax(h, 1.0f);
    }
    binH = h / float(pooledH);
    binW = w / float(pooledW);
  }
  float sampleY(unsigned ph, unsigned iy, unsigned grid) const {
    return startY + float(ph) * binH + (float(iy) + 0.5f) * binH / float(grid);
  }
  float sampleX(unsigned pw, unsigned ix, unsigned grid) const {
    return startX + float(pw) * binW + (float(ix) + 0.5f) * binW / float(grid);
  }
};

template <class T> void readBox(const T *rois, float box[4]) {
  for (unsigned i = 0; i != 4; ++i)
    box[i] = float(rois[i]);
}

// Calls f(bin, sample) for every sample of every bin of the region
// (bin = ph * pooledW + pw) that reads the map.
template <class F>
void forEachSample(const Region &r, unsigned pooledH, unsigned pooledW,
                   unsigned grid, unsigned height, unsigned width, F f) {
  for (unsigned ph = 0; ph != pooledH; ++ph)
    for (unsigned iy = 0; iy != grid; ++iy) {
      const float y = r.sampleY(ph, iy, grid);
      for (unsigned pw = 0; pw != pooledW; ++pw)
        for (unsigned ix = 0; ix != grid; ++ix) {
          const Bilinear b = bilinear(y, r.sampleX(pw, ix, grid), height, width);
          if (b.inside)
            f(ph * pooledW + pw, b);
        }
    }
}

} // namespace

// One region and one channel: out[ph * pooledW + pw], the pooled bins.
// data is the channel of every image ([batch][height * width]); a batch
// index outside the batch fails the vertex (compute returns false).
template <class T> class ROIAlignForward : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<T>> data;
  poplar::Input<poplar::Vector<T>> rois;
  poplar::Input<int> batchIndex;
  poplar::Output<poplar::Vector<T>> out;
  float spatialScale;
  unsigned batchSize;
  unsigned height;
  unsigned width;
  unsigned pooledH;
  unsigned pooledW;
  unsigned samplingRatio;
  bool aligned;

  bool compute() {
    const int n = *batchIndex;
    if (n < 0 || unsigned(n) >= batchSize)
      return false;
    float box[4];
    readBox(&rois[0], box);
    const Region r(box, spatialScale, aligned, pooledH, pooledW);
    const T *image = &data[0] + std::size_t(n) * height * width;
    const float count = float(samplingRatio * samplingRatio);
    std::vector<float> sums(pooledH * pooledW, 0.0f);
    forEachSample(r, pooledH, pooledW, samplingRatio, height, width,
                  [&](unsigned bin, const Bilinear &b) {
                    sums[bin] += b.w00 * float(image[b.y0 * width + b.x0]) +
                                 b.w01 * float(image[b.y0 * width + b.x1]) +
                                 b.w10 * float(image[b.y1 * width + b.x0]) +
                                 b.w11 * float(image[b.y1 * width + b.x1]);
                  });
    for (unsigned bin = 0; bin != sums.size(); ++bin)
      out[bin] = T(sums[bin] / count);
    return true;
  }
};

template class ROIAlignForward<float>;
template class ROIAlignForward<half>;

// One image and one channel of the input gradient (grad, [height * width]):
// each region whose batch index is `image` spreads its pooled gradients
// (topGrad, this channel's [numRois][pooledH * pooledW]) back over the
// pixels its samples read, with their bilinear weights over the number of
// samples in a bin. A batch index outside the batch fails the vertex.
template <class T> class ROIAlignBackward : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<T>> topGrad;
  poplar::Input<poplar::Vector<T>> rois;
  poplar::Input<poplar::Vector<int>> batchIndex;
  poplar::Output<poplar::Vector<T>> grad;
  float spatialScale;
  unsigned image;
  unsigned batchSize;
  unsigned height;
  unsigned width;
  unsigned pooledH;
  unsigned pooledW;
  unsigned samplingRatio;
  bool aligned;

  bool compute() {
    const unsigned numRois = batchIndex.size();
    const float count = float(samplingRatio * samplingRatio);
    std::vector<float> sums(height * width, 0.0f);
    for (unsigned k = 0; k != numRois; ++k) {
      const int n = batchIndex[k];
      if (n < 0 || unsigned(n) >= batchSize)
        return false;
      if (unsigned(n) != image)
        continue;
      float box[4];
      readBox(&rois[4 * k], box);
      const Region r(box, spatialScale, aligned, pooledH, pooledW);
      const T *g = &topGrad[0] + std::size_t(k) * pooledH * pooledW;
      forEachSample(r, pooledH, pooledW, samplingRatio, height, width,
                    [&](unsigned bin, const Bilinear &b) {
                      const float top = float(g[bin]) / count;
                      sums[b.y0 * width + b.x0] += top * b.w00;
                      sums[b.y0 * width + b.x1] += top * b.w01;
                      sums[b.y1 * width + b.x0] += top * b.w10;
                      sums[b.y1 * width + b.x1] += top * b.w11;
                    });
    }
    for (unsigned i = 0; i != sums.size(); ++i)
      grad[i] = T(sums[i]);
    return true;
  }
};

template class ROIAlignBackward<float>;
template class ROIAlignBackward<half>;

} // namespace popnn
