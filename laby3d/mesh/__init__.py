"""2D plan → watertight triangle meshes, and their checks."""
