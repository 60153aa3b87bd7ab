// Reading the MNIST data set (and data sets in its format, such as
// Fashion-MNIST): IDX files, as get_data.sh unpacks them into data/.
//
// An IDX file is a big-endian header (a magic number whose last byte is
// the number of dimensions, then each dimension) followed by the
// elements, unsigned bytes here. Images are [count][rows][columns],
// labels [count].
#ifndef TUT5_MNIST_H
#define TUT5_MNIST_H

#include <string>
#include <vector>

// The images of an IDX file as floats in [0, 1], one row of
// rows * columns pixels each; sets the number of images and their size.
// Throws std::runtime_error naming the file if it cannot be read.
std::vector<float> readMNISTData(unsigned &numberOfImages, unsigned &imageSize,
                                 const std::string &path);

// The labels of an IDX file.
std::vector<unsigned> readMNISTLabels(const std::string &path);

#endif // TUT5_MNIST_H
