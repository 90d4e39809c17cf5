"""The typed IR (attrs classes) and the dialect declarations."""
