//! Go's evaluation: the seed's move scorer ([`baduk`]), 3x3 shape patterns ([`patterns`]),
//! ladder reading ([`ladder`]), the features of a move and their learned gammas ([`features`],
//! [`gammas`]), and the tree's priors for each child ([`priors`]).

pub mod baduk;
pub mod features;
pub mod gammas;
pub mod ladder;
pub mod patterns;
pub mod priors;
pub mod spatial;
