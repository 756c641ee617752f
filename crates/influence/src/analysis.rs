//! The classic compound maps of "Influence Maps I" (Ground Control 2, World in Conflict),
//! for any number of teams seen from one team's perspective:
//!
//! | map | formula |
//! |---|---|
//! | mine | the perspective team's layer |
//! | theirs | the sum of every other team's layer |
//! | influence | mine − theirs: positive where I control, negative where they do |
//! | tension | mine + theirs: where the strength is, of either side |
//! | tension (product) | mine × theirs: zero wherever only one side is present |
//! | vulnerability | tension − \|influence\|: high where strong forces are evenly matched |
//! | directed vulnerability | tension + influence: conflict where I am the stronger |
//!
//! With the additive tension, directed vulnerability is exactly `2 × mine` (the article's
//! own remark: "this will not differ as much from the influence map"); it differs once a
//! caller builds it from another tension, e.g. `tension_product + influence`.

use crate::layer::Layer;

/// The compound maps for one perspective, kept between frames: [`Analysis::update`]
/// recomputes them in place without allocating.
#[derive(Debug, Clone, PartialEq)]
pub struct Analysis {
    /// The perspective team's influence.
    pub mine: Layer,
    /// The other teams' influence, summed.
    pub theirs: Layer,
    /// mine − theirs.
    pub influence: Layer,
    /// mine + theirs.
    pub tension: Layer,
    /// mine × theirs.
    pub tension_product: Layer,
    /// tension − |influence|.
    pub vulnerability: Layer,
    /// tension + influence.
    pub directed_vulnerability: Layer,
}

impl Analysis {
    /// Zeroed maps of `len` cells.
    pub fn new(len: usize) -> Self {
        let z = Layer::zeros(len);
        Self {
            mine: z.clone(),
            theirs: z.clone(),
            influence: z.clone(),
            tension: z.clone(),
            tension_product: z.clone(),
            vulnerability: z.clone(),
            directed_vulnerability: z,
        }
    }

    /// The maps from the view of the team whose layer is `mine`, against `others` (every
    /// other team, summed into [`theirs`](Self::theirs) in the order given).
    ///
    /// The perspective is the layer itself, not an index into a list of teams: "whose view"
    /// is then part of the call's types, cannot be out of range, and reads at the call site
    /// (`from_teams(&red, &[&blue])`). A game with its teams in a list splits it where it
    /// picks the perspective.
    ///
    /// ```
    /// use influence::{Analysis, Layer};
    /// let red = Layer::from_vec(vec![4.0, 2.0, 0.0]);
    /// let blue = Layer::from_vec(vec![0.0, 2.0, 3.0]);
    /// let a = Analysis::from_teams(&red, &[&blue]);
    /// assert_eq!(a.influence.values(), &[4.0, 0.0, -3.0]);
    /// assert_eq!(a.tension.values(), &[4.0, 4.0, 3.0]);
    /// assert_eq!(a.vulnerability.values(), &[0.0, 4.0, 0.0]); // the contested middle
    /// ```
    ///
    /// # Panics
    /// If the layers differ in length.
    pub fn from_teams(mine: &Layer, others: &[&Layer]) -> Self {
        let mut a = Self::new(mine.len());
        a.update(mine, others);
        a
    }

    /// Recomputes every map in place for the team whose layer is `mine`, against `others`,
    /// as [`from_teams`](Self::from_teams) does.
    ///
    /// ```
    /// use influence::{Analysis, Layer};
    /// let (red, blue) = (Layer::from_vec(vec![1.0; 4]), Layer::from_vec(vec![2.0; 4]));
    /// let mut maps = Analysis::new(4);
    /// maps.update(&blue, &[&red]); // blue's view, every frame without allocating
    /// assert_eq!(maps.influence.values(), &[1.0; 4]);
    /// ```
    ///
    /// # Panics
    /// If the layers differ in length from these maps.
    pub fn update(&mut self, mine: &Layer, others: &[&Layer]) {
        match others.split_first() {
            Some((first, rest)) => {
                self.theirs.values_mut().copy_from_slice(first.values());
                for layer in rest {
                    self.theirs.zip_map(layer, |a, b| a + b);
                }
            }
            None => {
                self.theirs.fill(0.0);
            }
        }
        // Every compound map in one pass over memory: on large maps the work is bandwidth.
        let n = self.mine.len();
        assert_eq!(mine.len(), n, "layers of different lengths");
        let (m, t) = (&mine.values()[..n], &self.theirs.values()[..n]);
        let mine_out = &mut self.mine.values_mut()[..n];
        let influence = &mut self.influence.values_mut()[..n];
        let tension = &mut self.tension.values_mut()[..n];
        let product = &mut self.tension_product.values_mut()[..n];
        let vulnerability = &mut self.vulnerability.values_mut()[..n];
        let directed = &mut self.directed_vulnerability.values_mut()[..n];
        for i in 0..n {
            let (a, b) = (m[i], t[i]);
            let (inf, ten) = (a - b, a + b);
            mine_out[i] = a;
            influence[i] = inf;
            tension[i] = ten;
            product[i] = a * b;
            vulnerability[i] = ten - inf.abs();
            directed[i] = ten + inf;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_teams_from_each_perspective() {
        let a = Layer::from_vec(vec![3.0, 0.0]);
        let b = Layer::from_vec(vec![1.0, 2.0]);
        let c = Layer::from_vec(vec![1.0, 5.0]);
        let from_b = Analysis::from_teams(&b, &[&a, &c]);
        assert_eq!(from_b.theirs.values(), &[4.0, 5.0]);
        assert_eq!(from_b.influence.values(), &[-3.0, -3.0]);
        assert_eq!(from_b.tension.values(), &[5.0, 7.0]);
        assert_eq!(from_b.tension_product.values(), &[4.0, 10.0]);
        assert_eq!(from_b.vulnerability.values(), &[2.0, 4.0]);
        assert_eq!(from_b.directed_vulnerability.values(), &[2.0, 4.0]);
    }

    #[test]
    fn update_reuses_buffers() {
        let a = Layer::from_vec(vec![1.0; 4]);
        let b = Layer::from_vec(vec![2.0; 4]);
        let mut maps = Analysis::new(4);
        let before = maps.influence.values().as_ptr();
        maps.update(&a, &[&b]);
        maps.update(&b, &[&a]);
        assert_eq!(maps.influence.values(), &[1.0; 4]);
        assert_eq!(maps.influence.values().as_ptr(), before);
    }
}
