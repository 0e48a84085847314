# registers the "rough_sort" dataset (image pairs -> score) with ms-swift; not needed to reproduce the start-up
