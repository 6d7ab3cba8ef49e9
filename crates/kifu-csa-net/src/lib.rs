//! The CSA server protocol over the network (filled in by its issue).
