"""Maze model, generation, solving and analysis."""
