
BvJIFF;:?