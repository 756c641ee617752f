//! Named layers: one per team, per kind of threat, per event type ("Influence Maps in Game
//! AI": layer types registered by name, looked up by a cheap id every frame).

use crate::layer::Layer;

/// A handle to a registered layer: an index, so per-frame lookups hash no strings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LayerId(usize);

/// Layers of one space, by name.
///
/// ```
/// use influence::registry::Registry;
/// let mut layers = Registry::new(4);
/// let water = layers.register("water");
/// let fire = layers.register("fire");
/// let safety = layers.register("safety");
/// layers[water].fill(3.0);
/// layers[fire].values_mut()[0] = 5.0;
/// layers.combine(safety, &[(water, 1.0), (fire, -1.0)]);
/// assert_eq!(layers[safety].values(), &[-2.0, 3.0, 3.0, 3.0]);
/// assert_eq!(layers.id("fire"), Some(fire));
/// ```
#[derive(Debug, Clone, Default)]
pub struct Registry {
    len: usize,
    names: Vec<String>,
    layers: Vec<Layer>,
}

impl Registry {
    /// An empty registry for a space of `len` cells.
    pub fn new(len: usize) -> Self {
        Self { len, ..Self::default() }
    }

    /// The id of layer `name`, registering a zeroed layer the first time.
    pub fn register(&mut self, name: &str) -> LayerId {
        self.id(name).unwrap_or_else(|| {
            self.names.push(name.to_owned());
            self.layers.push(Layer::zeros(self.len));
            LayerId(self.layers.len() - 1)
        })
    }

    /// The id of layer `name`, if registered (the layer itself: `registry[id]`).
    pub fn id(&self, name: &str) -> Option<LayerId> {
        self.names.iter().position(|n| n == name).map(LayerId)
    }

    /// The name of a layer.
    pub fn name(&self, id: LayerId) -> &str {
        &self.names[id.0]
    }

    /// `(id, name, layer)` for every layer, in registration order.
    pub fn iter(&self) -> impl Iterator<Item = (LayerId, &str, &Layer)> {
        self.names.iter().zip(&self.layers).enumerate().map(|(i, (n, l))| (LayerId(i), n.as_str(), l))
    }

    /// Number of registered layers.
    pub fn len(&self) -> usize {
        self.layers.len()
    }

    /// `true` when nothing is registered.
    pub fn is_empty(&self) -> bool {
        self.layers.is_empty()
    }

    /// Sets layer `out` to `Σ weight · layer` over `terms`, without allocating. `out` may
    /// appear among the terms (its old values are used).
    pub fn combine(&mut self, out: LayerId, terms: &[(LayerId, f32)]) {
        let mut target = std::mem::take(&mut self.layers[out.0]);
        let old_self_weight: f32 = terms.iter().filter(|(id, _)| *id == out).map(|(_, w)| w).sum();
        target.map(|v| v * old_self_weight);
        for &(id, w) in terms.iter().filter(|(id, _)| *id != out) {
            target.zip_map(&self.layers[id.0], |a, b| a + w * b);
        }
        self.layers[out.0] = target;
    }
}

impl std::ops::Index<LayerId> for Registry {
    type Output = Layer;
    fn index(&self, id: LayerId) -> &Layer {
        &self.layers[id.0]
    }
}

impl std::ops::IndexMut<LayerId> for Registry {
    fn index_mut(&mut self, id: LayerId) -> &mut Layer {
        &mut self.layers[id.0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn register_is_idempotent_and_combine_may_use_its_target() {
        let mut r = Registry::new(2);
        let a = r.register("a");
        assert_eq!(r.register("a"), a);
        let b = r.register("b");
        r[a].fill(2.0);
        r[b].fill(1.0);
        r.combine(a, &[(a, 0.5), (b, 3.0)]);
        assert_eq!(r[a].values(), &[4.0, 4.0]);
        assert_eq!(r.len(), 2);
        assert_eq!(r.iter().map(|(_, n, _)| n).collect::<Vec<_>>(), vec!["a", "b"]);
        assert_eq!(r.name(b), "b");
        assert!(r.id("zzz").is_none());
    }
}
