"""Pictures of a maze: ASCII art, matplotlib figures, generation animation."""
