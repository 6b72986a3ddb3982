"""Maze → 2D geometry in millimetres (shapely): wall footprint, corridors, solution, labels."""
